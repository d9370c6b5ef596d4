import { ApiLeadIntake, ContactWaitingReasons } from '@outreach/campaigns';
import {
  aCampaign,
  InMemoryApiLeadContactStore,
  InMemoryCampaignExecutionRepository,
  InMemoryCampaignRepository,
  InMemoryContactRepository,
  inMemoryTimeline,
} from '../../../campaigns/src/testing';
import { FixedClock, RecordingOutbox } from '../../../platform/src/testing';
import { aLeadResult, InMemoryLeadKeyStore, InMemoryResultStore } from '../testing';
import { LeadQueries } from './lead-queries';

const NOW = new Date('2026-11-21T10:00:00Z');
const WS = 'ws-1';
const CID = 'c-1';

function setup() {
  const contacts = new InMemoryContactRepository(() => NOW);
  const campaigns = new InMemoryCampaignRepository(contacts);
  const intake = new ApiLeadIntake(campaigns, new InMemoryApiLeadContactStore(campaigns, contacts), new RecordingOutbox(), inMemoryTimeline());
  const keys = new InMemoryLeadKeyStore();
  const results = new InMemoryResultStore();
  campaigns.seed(aCampaign({ workspaceId: WS, id: CID, status: 'RUNNING', draft: { source: 'API' } }));
  campaigns.seed(aCampaign({ workspaceId: WS, id: 'c-2', status: 'RUNNING', draft: { source: 'API' } }));
  const lead = (campaignId = CID, workspaceId = WS) => {
    const contact = contacts.seed(workspaceId, campaignId, { phone: '+14155550100', status: 'RETRY_SCHEDULED', attempts: 1, lastOutcome: 'no_answer' });
    keys.seed({ campaignId, idempotencyKey: 'k-1', workspaceId, leadId: contact.id, lead: { phone: '+14155550100', name: 'Ann', fields: { plan: 'gold', n: 3 } } });
    return contact;
  };
  return { contacts, keys, results, queries: new LeadQueries(intake, keys, results, new ContactWaitingReasons(new InMemoryCampaignExecutionRepository(campaigns, contacts), new FixedClock(NOW)), inMemoryTimeline()), lead };
}

describe('LeadQueries (use case, ports faked)', () => {
  it('answers the live lead, as pushed, with resultId once its result exists', async () => {
    const s = setup();
    const contact = s.lead();
    await expect(s.queries.get(WS, CID, contact.id)).resolves.toEqual({
      id: contact.id,
      campaignId: CID,
      idempotencyKey: 'k-1',
      phone: '+14155550100',
      name: 'Ann',
      fields: { plan: 'gold', n: 3 },
      status: 'RETRY_SCHEDULED',
      attempts: 1,
      lastOutcome: 'no_answer',
      lastAttemptAt: null,
      // 10:00Z is 02:00 in Los Angeles (415): the lead waits for 08:00 there (decisions.md 28.5).
      nextAttemptAt: '2026-11-21T16:00:00.000Z',
      waitingReason: 'outside_recipient_hours',
      resultId: null,
      createdAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
    });
    const envelope = aLeadResult({ campaignId: CID, leadId: contact.id, createdAt: NOW });
    await s.results.insert(WS, envelope, new Date(NOW.getTime() + 1000));
    await expect(s.queries.get(WS, CID, contact.id)).resolves.toMatchObject({ resultId: envelope.id });
  });

  it('answers campaign_not_found for an unknown or another workspace’s campaign', async () => {
    const s = setup();
    const contact = s.lead();
    await expect(s.queries.get(WS, 'nope', contact.id)).rejects.toMatchObject({ code: 'campaign_not_found' });
    await expect(s.queries.get('ws-2', CID, contact.id)).rejects.toMatchObject({ code: 'campaign_not_found' });
  });

  it('answers lead_not_found for an unknown id, a CSV contact, or another campaign’s lead', async () => {
    const s = setup();
    const csvContact = s.contacts.seed(WS, CID, { phone: '+14155550177' });
    const elsewhere = s.lead('c-2');
    for (const id of ['unknown', csvContact.id, elsewhere.id]) {
      await expect(s.queries.get(WS, CID, id)).rejects.toMatchObject({ code: 'lead_not_found', status: 404 });
    }
  });

  it('answers lead_not_found when the lead’s key belongs to another campaign or workspace', async () => {
    const s = setup();
    const contact = s.contacts.seed(WS, CID, { phone: '+14155550188' });
    s.keys.seed({ campaignId: 'c-2', idempotencyKey: 'k-9', workspaceId: WS, leadId: contact.id });
    await expect(s.queries.get(WS, CID, contact.id)).rejects.toMatchObject({ code: 'lead_not_found' });
    const other = s.contacts.seed(WS, CID, { phone: '+14155550189' });
    s.keys.seed({ campaignId: CID, idempotencyKey: 'k-10', workspaceId: 'ws-2', leadId: other.id });
    await expect(s.queries.get(WS, CID, other.id)).rejects.toMatchObject({ code: 'lead_not_found' });
  });
});
