import { ApiLeadIntake } from '@outreach/campaigns';
import { aCampaign, InMemoryApiLeadContactStore, InMemoryCampaignRepository, InMemoryContactRepository, inMemoryTimeline } from '../../../campaigns/src/testing';
import { RecordingOutbox } from '../../../platform/src/testing';
import { encodeCursor } from '../domain/page-cursor';
import { InMemoryApiLogStore } from '../testing';
import { ApiLogs } from './api-logs.service';

const WS = 'ws-1';
const CID = 'c-1';
const T0 = new Date('2026-11-21T10:00:00Z');

function setup() {
  const contacts = new InMemoryContactRepository();
  const campaigns = new InMemoryCampaignRepository(contacts);
  const intake = new ApiLeadIntake(campaigns, new InMemoryApiLeadContactStore(campaigns, contacts), new RecordingOutbox(), inMemoryTimeline());
  const store = new InMemoryApiLogStore();
  campaigns.seed(aCampaign({ workspaceId: WS, id: CID, draft: { source: 'API' } }));
  campaigns.seed(aCampaign({ workspaceId: 'ws-2', id: 'c-foreign' }));
  return { store, logs: new ApiLogs(store, intake) };
}

function entry(n: number, campaignId = CID, workspaceId = WS) {
  return {
    workspaceId,
    campaignId,
    method: 'POST',
    route: '/v1/campaigns/:id/leads',
    path: `/v1/campaigns/${campaignId}/leads`,
    status: n % 2 === 0 ? 201 : 422,
    errorCode: n % 2 === 0 ? null : 'invalid_phone',
    latencyMs: n,
    keyId: 'key-1',
    requestId: `req-${n}`,
    at: new Date(T0.getTime() + n * 1000),
  };
}

describe('ApiLogs (use case, ports faked)', () => {
  it('records entries and pages them newest first with a cursor', async () => {
    const s = setup();
    for (let n = 1; n <= 3; n += 1) await s.logs.record(entry(n));
    await s.logs.record(entry(9, 'c-other'));

    const first = await s.logs.page(WS, CID, { limit: 2 });
    expect(first.items.map((l) => l.requestId)).toEqual(['req-3', 'req-2']);
    expect(first.items[0]).toMatchObject({ method: 'POST', status: 422, error: 'invalid_phone', latencyMs: 3, createdAt: entry(3).at.toISOString() });
    const second = await s.logs.page(WS, CID, { limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((l) => l.requestId)).toEqual(['req-1']);
    expect(second.nextCursor).toBeNull();
  });

  it('answers campaign_not_found for an unknown or another workspace’s campaign', async () => {
    const s = setup();
    await s.logs.record(entry(1, 'c-foreign', 'ws-2'));
    await expect(s.logs.page(WS, 'c-foreign', { limit: 10 })).rejects.toMatchObject({ code: 'campaign_not_found' });
    await expect(s.logs.page(WS, 'nope', { limit: 10 })).rejects.toMatchObject({ code: 'campaign_not_found' });
  });

  it('answers invalid_cursor for a malformed cursor or one of another list', async () => {
    const s = setup();
    for (const cursor of ['!!', encodeCursor('results', '5')]) {
      await expect(s.logs.page(WS, CID, { limit: 10, cursor })).rejects.toMatchObject({ code: 'invalid_cursor' });
    }
  });
});
