import { AppError, FixedClock } from '@outreach/core';
import { ApiLeadIntake, CampaignJob, CampaignQueue } from '@outreach/campaigns';
import { aCampaign, InMemoryApiLeadContactStore, InMemoryCampaignRepository, InMemoryContactRepository, inMemoryTimeline } from '../../../campaigns/src/testing';
import { codeOf, RecordingOutbox, RollbackUnitOfWork } from '../../../platform/src/testing';
import { InMemoryLeadKeyStore, RecordingNewLeadStatement } from '../testing';
import { LeadPushInput, PushLead } from './push-lead.use-case';

/* PushLead over in-memory keys and contacts: outcomes (created, deduplicated, replayed), codes, what is stored and enqueued. */

const W = 'w1';
const C = 'c1';

describe('PushLead', () => {
  let campaigns: InMemoryCampaignRepository;
  let contacts: InMemoryContactRepository;
  let keys: InMemoryLeadKeyStore;
  let outbox: RecordingOutbox;
  let uow: RollbackUnitOfWork;
  let pushLead: PushLead;
  let newLeads: RecordingNewLeadStatement;
  const dispatches = () => outbox.named(CampaignQueue.Campaigns, CampaignJob.Dispatch);

  beforeEach(() => {
    contacts = new InMemoryContactRepository();
    campaigns = new InMemoryCampaignRepository(contacts);
    campaigns.seed(aCampaign({ workspaceId: W, id: C, status: 'RUNNING', draft: { source: 'API', countryCode: '+1' } }));
    keys = new InMemoryLeadKeyStore();
    outbox = new RecordingOutbox();
    // A push that finds its key taken rolls back what it wrote (the contact first of all).
    uow = new RollbackUnitOfWork([contacts]);
    const intake = new ApiLeadIntake(campaigns, new InMemoryApiLeadContactStore(campaigns, contacts), outbox, inMemoryTimeline());
    newLeads = new RecordingNewLeadStatement();
    pushLead = new PushLead(intake, keys, uow, new FixedClock(new Date('2026-01-01T00:00:00.000Z')), newLeads);
  });

  const lead = (over: Partial<LeadPushInput> = {}): LeadPushInput => ({ idempotencyKey: 'k1', phone: '(415) 555-2671', name: 'Ada', fields: { plan: 'gold', seats: 3 }, ...over });

  it('created: a new contact with the phone in E.164 (campaign countryCode as default), a dispatch job, the answer stored with the key', async () => {
    const outcome = await pushLead.push(W, C, lead());
    expect(outcome.result).toBe('created');
    expect(outcome.body).toMatchObject({ campaignId: C, idempotencyKey: 'k1', phone: '+14155552671', name: 'Ada', fields: { plan: 'gold', seats: 3 }, status: 'PENDING', attempts: 0, resultId: null, deduplicated: false });
    expect(contacts.all()).toEqual([expect.objectContaining({ id: outcome.body.id, phone: '+14155552671', fields: { plan: 'gold', seats: '3' } })]);
    expect(dispatches()).toEqual([expect.objectContaining({ payload: { campaignId: C } })]);
    expect(await keys.find(C, 'k1')).toMatchObject({ leadId: outcome.body.id, response: outcome.body });
    expect(uow.runs).toBe(1);
  });

  it('replayed: the same key and lead (fields in any order, another notation) answer the first body, nothing new', async () => {
    const first = await pushLead.push(W, C, lead());
    const again = await pushLead.push(W, C, lead({ phone: '+1 415 555 2671', fields: { seats: 3, plan: 'gold' } }));
    expect(again).toEqual({ result: 'replayed', body: first.body });
    expect(contacts.all()).toHaveLength(1);
    expect(dispatches()).toHaveLength(1);
  });

  it('deduplicated: a new key for a phone the campaign has names that contact; no second dispatch', async () => {
    const first = await pushLead.push(W, C, lead());
    const second = await pushLead.push(W, C, lead({ idempotencyKey: 'k2', name: 'Ada L.' }));
    expect(second.result).toBe('deduplicated');
    expect(second.body).toMatchObject({ id: first.body.id, idempotencyKey: 'k2', deduplicated: true });
    expect(contacts.all()).toHaveLength(1);
    expect(dispatches()).toHaveLength(1);
  });

  it('idempotency_key_reused for the same key with another lead; nothing stored (the contact it added is rolled back)', async () => {
    await pushLead.push(W, C, lead());
    const rolledBack = uow.rolledBack;
    expect(await codeOf(pushLead.push(W, C, lead({ phone: '+14155552672' })))).toEqual({ code: 'idempotency_key_reused', chosenStatus: undefined });
    expect(contacts.all()).toHaveLength(1);
    expect(uow.rolledBack).toBe(rolledBack + 1);
  });

  it('invalid_phone (status left to the route) with an issue on phone; nothing stored, no key claimed', async () => {
    const error = await pushLead.push(W, C, lead({ phone: '12' })).catch((e: AppError) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'invalid_phone', options: { issues: [{ path: 'phone', message: expect.any(String) }] } });
    expect((error as AppError).options.status).toBeUndefined();
    expect([...keys.records.values()]).toEqual([]);
    expect(contacts.all()).toEqual([]);
  });

  it('campaign_not_found and campaign_not_accepting (reason not_api or the status) before anything else', async () => {
    campaigns.seed(aCampaign({ workspaceId: W, id: 'csv', status: 'RUNNING', draft: { source: 'CSV' } }));
    campaigns.seed(aCampaign({ workspaceId: W, id: 'paused', status: 'PAUSED', draft: { source: 'API' } }));
    expect(await codeOf(pushLead.push(W, 'nope', lead()))).toEqual({ code: 'campaign_not_found', chosenStatus: undefined });
    expect(await codeOf(pushLead.push('w2', C, lead()))).toEqual({ code: 'campaign_not_found', chosenStatus: undefined });
    const csv = await pushLead.push(W, 'csv', lead({ phone: 'not even a phone' })).catch((e: AppError) => e);
    expect(csv).toMatchObject({ code: 'campaign_not_accepting', options: { extra: { reason: 'not_api' } } });
    expect(await pushLead.push(W, 'paused', lead()).catch((e: AppError) => e)).toMatchObject({ code: 'campaign_not_accepting', options: { extra: { reason: 'PAUSED' } } });
    expect([...keys.records.values()]).toEqual([]);
  });

  it('a key claimed by a concurrent push: its answer is replayed, or idempotency_in_progress with Retry-After while it runs', async () => {
    const winnerBody = (await pushLead.push(W, C, lead({ idempotencyKey: 'other' }))).body;
    keys.concurrentWinner = (record) => ({ ...record, leadId: winnerBody.id, response: { ...winnerBody, idempotencyKey: record.idempotencyKey } });
    expect(await pushLead.push(W, C, lead({ idempotencyKey: 'raced' }))).toEqual({ result: 'replayed', body: { ...winnerBody, idempotencyKey: 'raced' } });

    keys.concurrentWinner = (record) => ({ ...record, leadId: null, response: null });
    const running = await pushLead.push(W, C, lead({ idempotencyKey: 'running' })).catch((e: AppError) => e);
    expect(running).toMatchObject({ code: 'idempotency_in_progress', options: { headers: { 'Retry-After': '1' } } });
  });

  describe('as one statement (decisions.md 42.3)', () => {
    it('is offered a push once the campaign was seen taking API leads, with the phone normalised by its calling code and the whole answer', async () => {
      await pushLead.push(W, C, lead({ idempotencyKey: 'first' }));
      expect(newLeads.calls).toEqual([]); // the campaign's calling code was not known yet
      newLeads.answer = 'written';
      const outcome = await pushLead.push(W, C, lead({ idempotencyKey: 'k2', phone: '(415) 555-0000' }));
      expect(outcome.result).toBe('created');
      expect(newLeads.calls).toHaveLength(1);
      const [{ lead: written, key }] = newLeads.calls;
      expect(written).toEqual({
        workspaceId: W,
        campaignId: C,
        countryCode: '+1',
        contactId: outcome.body.id,
        contact: { phone: '+14155550000', name: 'Ada', fields: { plan: 'gold', seats: '3' } },
        at: new Date('2026-01-01T00:00:00.000Z'),
      });
      expect(outcome.body).toEqual({
        id: written.contactId, campaignId: C, idempotencyKey: 'k2', phone: '+14155550000', name: 'Ada', fields: { plan: 'gold', seats: 3 },
        status: 'PENDING', attempts: 0, resultId: null, deduplicated: false, createdAt: '2026-01-01T00:00:00.000Z',
      });
      expect(key).toMatchObject({ campaignId: C, idempotencyKey: 'k2', workspaceId: W, leadId: written.contactId, response: outcome.body });
      // No transaction: the statement is its own.
      expect(uow.runs).toBe(1);
    });

    it('not_admitted: the transaction runs as before and answers for itself (here: the phone is known, deduplicated)', async () => {
      const first = await pushLead.push(W, C, lead({ idempotencyKey: 'first' }));
      const again = await pushLead.push(W, C, lead({ idempotencyKey: 'k2' }));
      expect(newLeads.calls).toHaveLength(1);
      expect(again.result).toBe('deduplicated');
      expect(again.body.id).toBe(first.body.id);
      expect(uow.runs).toBe(2);
    });

    it('key_taken: the first answer of the key is replayed, or idempotency_key_reused for another lead; no transaction', async () => {
      const first = await pushLead.push(W, C, lead());
      newLeads.answer = 'key_taken';
      expect(await pushLead.push(W, C, lead())).toEqual({ result: 'replayed', body: first.body });
      expect((await codeOf(pushLead.push(W, C, lead({ phone: '+14155550001' }))))?.code).toBe('idempotency_key_reused');
      expect(newLeads.calls).toHaveLength(2);
      expect(uow.runs).toBe(1);
    });

    it('a phone the calling code cannot normalise is not offered: the transaction answers invalid_phone', async () => {
      await pushLead.push(W, C, lead({ idempotencyKey: 'first' }));
      newLeads.answer = 'written';
      expect((await codeOf(pushLead.push(W, C, lead({ idempotencyKey: 'k2', phone: '12' }))))?.code).toBe('invalid_phone');
      expect(newLeads.calls).toEqual([]);
    });
  });

  it('pushMany: each item on its own, parse errors kept in place, failures per item; an unknown campaign refuses the batch', async () => {
    const parseError = new AppError('invalid_body', { issues: [{ path: 'leads.1.phone', message: 'must be a string' }] });
    const results = await pushLead.pushMany(W, C, [lead(), parseError, lead({ idempotencyKey: 'k3', phone: 'nope' }), lead()]);
    expect(results.map((r) => ('outcome' in r ? [r.index, r.outcome.result] : [r.index, r.error.code]))).toEqual([
      [0, 'created'],
      [1, 'invalid_body'],
      [2, 'invalid_phone'],
      [3, 'replayed'],
    ]);
    expect(contacts.all()).toHaveLength(1);
    expect(await codeOf(pushLead.pushMany(W, 'nope', [lead()]))).toEqual({ code: 'campaign_not_found', chosenStatus: undefined });
  });
});
