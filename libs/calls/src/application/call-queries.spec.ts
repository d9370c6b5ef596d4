import { AppError } from '@outreach/core';
import { CampaignViews } from '@outreach/campaigns';
import { callRecord, InMemoryCallQueries } from '../testing';
import { CAMPAIGN_ACTIVITY_WINDOW, CallReads } from './call-queries';

/* CallReads: list (with its range check), one call, and a campaign's latest activity. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const CAMPAIGN = 'b0000000-0000-4000-8000-000000000001';
const OTHER_CAMPAIGN = 'b0000000-0000-4000-8000-000000000002';

/** CampaignViews.require for the campaigns listed, campaign_not_found otherwise (the campaigns module's behaviour). */
class KnownCampaigns extends CampaignViews {
  readonly known = new Set<string>();

  constructor() {
    super(null as never, null as never, null as never);
  }

  override async require(workspaceId: string, id: string): Promise<never> {
    if (!this.known.has(`${workspaceId}/${id}`)) throw new AppError('campaign_not_found', { message: `no campaign ${id}` });
    return { id } as never;
  }
}

const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 9, minute)).toISOString();
const id = (n: number) => `c0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('CallReads', () => {
  let queries: InMemoryCallQueries;
  let campaigns: KnownCampaigns;
  let reads: CallReads;

  beforeEach(() => {
    queries = new InMemoryCallQueries();
    campaigns = new KnownCampaigns();
    campaigns.known.add(`${W1}/${CAMPAIGN}`);
    reads = new CallReads(queries, campaigns, null as never);
    queries.records.push(
      callRecord({ id: id(1), workspaceId: W1, campaignId: CAMPAIGN, startedAt: at(1), outcome: 'completed' }),
      callRecord({ id: id(2), workspaceId: W1, campaignId: CAMPAIGN, startedAt: at(2), outcome: 'busy' }),
      callRecord({ id: id(3), workspaceId: W1, campaignId: OTHER_CAMPAIGN, startedAt: at(3), status: 'FAILED', outcome: 'carrier_failure' }),
      callRecord({ id: id(4), workspaceId: W2, campaignId: null, kind: 'test', startedAt: at(4) }),
    );
  });

  describe('list', () => {
    it("pages the workspace's calls newest first with the total, filtered", async () => {
      await expect(reads.list(W1, {}, { offset: 0, limit: 2 })).resolves.toMatchObject({ items: [{ id: id(3) }, { id: id(2) }], total: 3 });
      await expect(reads.list(W1, { campaignId: CAMPAIGN, outcome: 'busy' }, { offset: 0, limit: 10 })).resolves.toMatchObject({
        items: [{ id: id(2) }],
        total: 1,
      });
      await expect(reads.list(W1, { from: new Date(at(2)), to: new Date(at(3)) }, { offset: 0, limit: 10 })).resolves.toMatchObject({
        items: [{ id: id(2) }],
        total: 1,
      });
    });

    it('invalid_query when to is before from; an empty range [t, t) is allowed', async () => {
      // list() is not async: it throws synchronously, so it is called inside an async function here.
      await expect((async () => reads.list(W1, { from: new Date(at(3)), to: new Date(at(2)) }, { offset: 0, limit: 10 }))()).rejects.toMatchObject({
        code: 'invalid_query',
        options: { issues: [{ path: 'to' }] },
      });
      await expect(reads.list(W1, { from: new Date(at(2)), to: new Date(at(2)) }, { offset: 0, limit: 10 })).resolves.toEqual({ items: [], total: 0 });
    });
  });

  describe('get', () => {
    it("the workspace's call; call_not_found for another workspace's or an unknown id", async () => {
      await expect(reads.get(W1, id(1))).resolves.toMatchObject({ id: id(1), outcome: 'completed', metricOverrides: {} });
      await expect(reads.get(W1, id(4))).rejects.toMatchObject({ code: 'call_not_found' });
      await expect(reads.get(W1, id(99))).rejects.toMatchObject({ code: 'call_not_found' });
    });
  });

  describe('campaignActivity', () => {
    it("the campaign's latest calls, newest first, at most the activity window", async () => {
      for (let n = 10; n < 10 + CAMPAIGN_ACTIVITY_WINDOW; n++) {
        queries.records.push(callRecord({ id: id(n), workspaceId: W1, campaignId: CAMPAIGN, startedAt: new Date(Date.UTC(2026, 2, 2, 0, n)).toISOString() }));
      }
      const activity = await reads.campaignActivity(W1, CAMPAIGN);
      expect(activity).toHaveLength(CAMPAIGN_ACTIVITY_WINDOW);
      expect(activity[0].id).toBe(id(9 + CAMPAIGN_ACTIVITY_WINDOW));
      expect(activity.map((c) => c.id)).not.toContain(id(1));
    });

    it("campaign_not_found for an unknown or another workspace's campaign", async () => {
      await expect(reads.campaignActivity(W1, OTHER_CAMPAIGN)).rejects.toMatchObject({ code: 'campaign_not_found' });
      await expect(reads.campaignActivity(W2, CAMPAIGN)).rejects.toMatchObject({ code: 'campaign_not_found' });
    });
  });
});
