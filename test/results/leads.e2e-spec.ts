import { Clock, FixedClock, UnitOfWork } from '@outreach/platform';
import { NewLeadStatement, NewLeadWrite } from '@outreach/results';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { addContacts, createCampaign, readCampaign } from '../campaigns/campaign-helpers';
import { countContacts, expectError, pushLead, randomE164, runningApiCampaign } from './results-helpers';

const T0 = new Date('2026-11-21T10:00:00Z');

describe('lead push (POST /v1/campaigns/{id}/leads)', () => {
  let t: TestApp;
  let ws: Seeded;
  const clock = new FixedClock(T0);

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock) });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    clock.set(T0);
    await t.reset();
    ws = await t.seed({ features: ['api_results'] });
  });

  async function dispatchJobs(campaignId: string): Promise<number> {
    const [{ n }] = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM outbox WHERE queue = 'campaigns' AND name = 'dispatch' AND payload->>'campaignId' = $1`,
      [campaignId],
    );
    return n;
  }

  /** Runs `work` while another push's open transaction holds the key, then rolls that transaction back. */
  async function whileKeyHeld(campaignId: string, key: string, work: () => Promise<void>): Promise<void> {
    const runner = t.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await runner.query(
        `INSERT INTO api_lead_keys (campaign_id, idempotency_key, workspace_id, fingerprint, lead) VALUES ($1, $2, $3, 'x', '{}')`,
        [campaignId, key, ws.workspaceId],
      );
      await work();
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }

  it('201 creates a PENDING contact and a dispatch job in the same transaction; a replay answers 200 with the same body', async () => {
    const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
    const jobsBefore = await dispatchJobs(c.id);
    const body = { idempotencyKey: 'order-1', phone: '+1 (415) 555-2671', name: 'Ada', fields: { plan: 'pro', seats: 3, vip: true, note: null } };

    const first = await pushLead(t, ws.key, c.id, body);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(String),
      campaignId: c.id,
      idempotencyKey: 'order-1',
      phone: '+14155552671',
      name: 'Ada',
      fields: { plan: 'pro', seats: 3, vip: true, note: null },
      status: 'PENDING',
      attempts: 0,
      resultId: null,
      deduplicated: false,
      createdAt: expect.any(String),
    });
    expect(await dispatchJobs(c.id)).toBe(jobsBefore + 1);
    const [contact] = await t.dataSource.query(`SELECT phone, name, fields, status FROM campaign_contacts WHERE id = $1`, [first.body.id]);
    expect(contact).toEqual({ phone: '+14155552671', name: 'Ada', fields: { plan: 'pro', seats: '3', vip: 'true', note: '' }, status: 'PENDING' });

    // the same lead, members reordered and the phone written differently: a replay
    const replay = await pushLead(t, ws.key, c.id, { fields: { vip: true, note: null, seats: 3, plan: 'pro' }, name: 'Ada', phone: '+14155552671', idempotencyKey: 'order-1' });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(await countContacts(t, c.id)).toBe(1);
    expect(await dispatchJobs(c.id)).toBe(jobsBefore + 1);

    const read = await t.http.get(`/v1/campaigns/${c.id}/leads/${first.body.id}`).set(bearer(ws.key));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: first.body.id, campaignId: c.id, idempotencyKey: 'order-1', status: 'PENDING', attempts: 0, resultId: null });
  });

  it('422 idempotency_key_reused: same key, different lead; nothing changes', async () => {
    const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
    expect((await pushLead(t, ws.key, c.id, { idempotencyKey: 'k', phone: '+14155552671', name: 'Ada' })).status).toBe(201);
    expectError(await pushLead(t, ws.key, c.id, { idempotencyKey: 'k', phone: '+14155552671', name: 'Grace' }), 422, 'idempotency_key_reused');
    expectError(await pushLead(t, ws.key, c.id, { idempotencyKey: 'k', phone: '+14155552672', name: 'Ada' }), 422, 'idempotency_key_reused');
    expectError(await pushLead(t, ws.key, c.id, { idempotencyKey: 'k', phone: '+14155552671', name: 'Ada', fields: { a: 1 } }), 422, 'idempotency_key_reused');
    expect(await countContacts(t, c.id)).toBe(1);
  });

  it('keys are per campaign: the same key in another campaign is a new lead', async () => {
    const a = await runningApiCampaign(t, ws.key, ws.workspaceId);
    const b = await runningApiCampaign(t, ws.key, ws.workspaceId);
    const lead = { idempotencyKey: 'shared', phone: '+14155552671' };
    expect((await pushLead(t, ws.key, a.id, lead)).status).toBe(201);
    expect((await pushLead(t, ws.key, b.id, lead)).status).toBe(201);
  });

  it('50 concurrent pushes with one key → exactly one lead and no 5xx', async () => {
    const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
    const body = { idempotencyKey: 'burst', phone: '+14155552671', name: 'Ada' };
    const responses = await Promise.all(Array.from({ length: 50 }, () => pushLead(t, ws.key, c.id, body)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.every((s) => s === 201 || s === 200 || s === 409)).toBe(true);
    for (const r of responses.filter((x) => x.status === 409)) {
      expect(r.body.error).toBe('idempotency_in_progress');
      expect(r.headers['retry-after']).toBe('1');
    }
    const ids = new Set(responses.filter((r) => r.status < 300).map((r) => r.body.id));
    expect(ids.size).toBe(1);
    expect(await countContacts(t, c.id)).toBe(1);
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM api_lead_keys WHERE campaign_id = $1`, [c.id]);
    expect(n).toBe(1);
  });

  it('50 concurrent pushes with different keys → 50 leads, no 5xx', async () => {
    const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => pushLead(t, ws.key, c.id, { idempotencyKey: `k-${i}`, phone: `+1415555${String(1000 + i)}` })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
    expect(await countContacts(t, c.id)).toBe(50);
    // The campaign's contactCount (sharded counter rows) agrees with the rows, replays add nothing.
    await Promise.all(Array.from({ length: 10 }, (_, i) => pushLead(t, ws.key, c.id, { idempotencyKey: `k-${i}`, phone: `+1415555${String(1000 + i)}` })));
    expect((await readCampaign(t, ws.key, c.id)).contactCount).toBe(50);
  });

  it('409 idempotency_in_progress + Retry-After: 1 while a push of the same key is still in flight', async () => {
    const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
    await whileKeyHeld(c.id, 'held', async () => {
      const res = await pushLead(t, ws.key, c.id, { idempotencyKey: 'held', phone: '+14155552671' });
      expectError(res, 409, 'idempotency_in_progress');
      expect(res.headers['retry-after']).toBe('1');
      expect(await countContacts(t, c.id)).toBe(0);
    });
    // that push never committed: the key is free again
    expect((await pushLead(t, ws.key, c.id, { idempotencyKey: 'held', phone: '+14155552671' })).status).toBe(201);
  });

  it('a second key for a phone the campaign has names the same lead (a campaign calls a phone once)', async () => {
    const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
    const first = await pushLead(t, ws.key, c.id, { idempotencyKey: 'a', phone: '+14155552671' });
    const second = await pushLead(t, ws.key, c.id, { idempotencyKey: 'b', phone: '+1 415 555 2671', name: 'Ada' });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ id: first.body.id, idempotencyKey: 'b', deduplicated: true });
    expect((await pushLead(t, ws.key, c.id, { idempotencyKey: 'b', phone: '+1 415 555 2671', name: 'Ada' })).body).toEqual(second.body);
    expect(await countContacts(t, c.id)).toBe(1);
    const read = await t.http.get(`/v1/campaigns/${c.id}/leads/${first.body.id}`).set(bearer(ws.key));
    expect(read.body.idempotencyKey).toBe('a');
  });

  describe('as one statement (decisions.md 42.3)', () => {
    let written: jest.SpyInstance;
    beforeEach(() => {
      written = jest.spyOn(t.get(NewLeadStatement), 'write');
    });
    afterEach(() => written.mockRestore());
    const answers = (): Promise<NewLeadWrite[]> => Promise.all(written.mock.results.map((r) => r.value as Promise<NewLeadWrite>));

    async function timeline(contactId: string): Promise<Array<{ type: string; detail: unknown; occurred_at: Date }>> {
      return t.dataSource.query(`SELECT type, detail, occurred_at FROM contact_timeline_events WHERE contact_id = $1 ORDER BY seq`, [contactId]);
    }

    it('once the campaign took a push, a new phone is written by one statement: contact, created event, count, dispatch job, the key with its answer', async () => {
      const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
      expect((await pushLead(t, ws.key, c.id, { idempotencyKey: 'first', phone: '+14155550100' })).status).toBe(201);
      expect(written).not.toHaveBeenCalled(); // the first push of the process to a campaign takes the transaction
      const jobsBefore = await dispatchJobs(c.id);

      const res = await pushLead(t, ws.key, c.id, { idempotencyKey: 'k1', phone: '+1 (415) 555-2671', name: 'Ada', fields: { plan: 'pro', seats: 3 } });
      expect(res.status).toBe(201);
      expect(await answers()).toEqual(['written']);
      expect(res.body).toEqual({
        id: expect.any(String), campaignId: c.id, idempotencyKey: 'k1', phone: '+14155552671', name: 'Ada', fields: { plan: 'pro', seats: 3 },
        status: 'PENDING', attempts: 0, resultId: null, deduplicated: false, createdAt: T0.toISOString(),
      });
      const [contact] = await t.dataSource.query(`SELECT phone, name, fields, status, attempts, created_at, recipient_zone FROM campaign_contacts WHERE id = $1`, [res.body.id]);
      expect(contact).toMatchObject({ phone: '+14155552671', name: 'Ada', fields: { plan: 'pro', seats: '3' }, status: 'PENDING', attempts: 0, created_at: T0 });
      expect(contact.recipient_zone).not.toBeNull();
      expect(await timeline(res.body.id)).toEqual([{ type: 'created', detail: { source: 'API' }, occurred_at: T0 }]);
      expect(await dispatchJobs(c.id)).toBe(jobsBefore + 1);
      expect((await readCampaign(t, ws.key, c.id)).contactCount).toBe(2);
      const [key] = await t.dataSource.query(`SELECT lead_id, response FROM api_lead_keys WHERE campaign_id = $1 AND idempotency_key = 'k1'`, [c.id]);
      expect(key).toEqual({ lead_id: res.body.id, response: res.body });
      // Read back and replayed as answered.
      const read = await t.http.get(`/v1/campaigns/${c.id}/leads/${res.body.id}`).set(bearer(ws.key));
      expect(read.body).toMatchObject({ id: res.body.id, idempotencyKey: 'k1', phone: '+14155552671', status: 'PENDING', createdAt: T0.toISOString() });
      const replay = await pushLead(t, ws.key, c.id, { idempotencyKey: 'k1', phone: '+14155552671', name: 'Ada', fields: { seats: 3, plan: 'pro' } });
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(res.body);
    });

    it('a key taken before fails the whole statement: another lead under it → 422 idempotency_key_reused and nothing of it is written', async () => {
      const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
      await pushLead(t, ws.key, c.id, { idempotencyKey: 'first', phone: '+14155550100' });
      expect((await pushLead(t, ws.key, c.id, { idempotencyKey: 'k', phone: '+14155552671' })).status).toBe(201);
      const jobs = await dispatchJobs(c.id);
      const [{ events }] = await t.dataSource.query(`SELECT count(*)::int AS events FROM contact_timeline_events`);

      expectError(await pushLead(t, ws.key, c.id, { idempotencyKey: 'k', phone: '+14155552672' }), 422, 'idempotency_key_reused');
      expect(await answers()).toEqual(['written', 'key_taken']);
      expect(await countContacts(t, c.id)).toBe(2);
      expect(await t.dataSource.query(`SELECT id FROM campaign_contacts WHERE phone = '+14155552672'`)).toEqual([]);
      expect(await dispatchJobs(c.id)).toBe(jobs);
      expect((await t.dataSource.query(`SELECT count(*)::int AS events FROM contact_timeline_events`))[0].events).toBe(events);
      expect((await readCampaign(t, ws.key, c.id)).contactCount).toBe(2);
    });

    it('the statement checks the campaign again: paused since → 409 campaign_not_accepting; another calling code since → normalised with it; a known phone → deduplicated', async () => {
      const c = await runningApiCampaign(t, ws.key, ws.workspaceId, { countryCode: '+1' });
      await pushLead(t, ws.key, c.id, { idempotencyKey: 'first', phone: '+14155550100' });

      await t.dataSource.query(`UPDATE campaigns SET status = 'PAUSED' WHERE id = $1`, [c.id]);
      const paused = await pushLead(t, ws.key, c.id, { idempotencyKey: 'p', phone: '+14155552671' });
      expect(paused.status).toBe(409);
      expect(paused.body).toMatchObject({ code: 'campaign_not_accepting', reason: 'PAUSED' }); // under `code` (contract)
      expect(await countContacts(t, c.id)).toBe(1);

      await t.dataSource.query(`UPDATE campaigns SET status = 'RUNNING', country_code = '+44' WHERE id = $1`, [c.id]);
      // Offered with the remembered +1, refused by the statement, taken by the transaction with +44 (a London number).
      const london = await pushLead(t, ws.key, c.id, { idempotencyKey: 'l', phone: '020 7946 0018' });
      expect(london.status).toBe(201);
      expect(london.body.phone).toBe('+442079460018');
      const next = await pushLead(t, ws.key, c.id, { idempotencyKey: 'n', phone: '020 7946 0019' });
      expect(next.status).toBe(201);
      const offered = written.mock.calls.map(([lead]) => (lead as { countryCode: string }).countryCode);
      expect(offered).toEqual(['+1', '+44']);
      expect(await answers()).toEqual(['not_admitted', 'written']);

      const known = await pushLead(t, ws.key, c.id, { idempotencyKey: 'again', phone: '020 7946 0019' });
      expect(known.status).toBe(200);
      expect(known.body).toMatchObject({ id: next.body.id, deduplicated: true });
      expect(await answers()).toEqual(['not_admitted', 'written', 'not_admitted']);
    });

    it('50 concurrent pushes of one new lead under one key → one contact, one key, one dispatch job, the same answer; no 5xx', async () => {
      const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
      await pushLead(t, ws.key, c.id, { idempotencyKey: 'first', phone: '+14155550100' });
      const jobs = await dispatchJobs(c.id);
      const body = { idempotencyKey: 'burst', phone: '+14155552671', name: 'Ada' };
      const responses = await Promise.all(Array.from({ length: 50 }, () => pushLead(t, ws.key, c.id, body)));
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.every((s) => s === 201 || s === 200 || s === 409)).toBe(true);
      const created = responses.find((r) => r.status === 201)!.body;
      for (const r of responses.filter((x) => x.status === 200)) expect(r.body).toEqual(created);
      expect(await countContacts(t, c.id)).toBe(2);
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM api_lead_keys WHERE campaign_id = $1 AND idempotency_key = 'burst'`, [c.id]);
      expect(n).toBe(1);
      expect(await dispatchJobs(c.id)).toBe(jobs + 1);
      expect((await readCampaign(t, ws.key, c.id)).contactCount).toBe(2);
    });

    it("inside a caller's transaction the statement writes nothing and answers not_admitted (the push's transaction joins the caller's)", async () => {
      const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
      await pushLead(t, ws.key, c.id, { idempotencyKey: 'first', phone: '+14155550100' });
      const at = new Date();
      const contactId = '00000000-0000-4000-8000-000000000042';
      const answer = await t.get(UnitOfWork).run(() =>
        t.get(NewLeadStatement).write(
          { workspaceId: ws.workspaceId, campaignId: c.id, countryCode: c.countryCode ?? null, contactId, contact: { phone: '+14155552671', name: null, fields: {} }, at },
          { campaignId: c.id, idempotencyKey: 'inside', workspaceId: ws.workspaceId, fingerprint: 'f', lead: { phone: '+14155552671', name: null, fields: {} }, leadId: contactId, response: null, createdAt: at },
        ),
      );
      expect(answer).toBe('not_admitted');
      expect(await countContacts(t, c.id)).toBe(1);
      expect(await t.dataSource.query(`SELECT 1 FROM api_lead_keys WHERE idempotency_key = 'inside'`)).toEqual([]);
    });

    it('409 idempotency_in_progress + Retry-After: 1 while another transaction holds the key; nothing written', async () => {
      const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
      await pushLead(t, ws.key, c.id, { idempotencyKey: 'first', phone: '+14155550100' });
      await whileKeyHeld(c.id, 'held', async () => {
        const res = await pushLead(t, ws.key, c.id, { idempotencyKey: 'held', phone: '+14155552671' });
        expectError(res, 409, 'idempotency_in_progress');
        expect(res.headers['retry-after']).toBe('1');
        expect(written).toHaveBeenCalledTimes(1);
        expect(await countContacts(t, c.id)).toBe(1);
      });
      expect((await pushLead(t, ws.key, c.id, { idempotencyKey: 'held', phone: '+14155552671' })).status).toBe(201);
      await expect(written.mock.results[0].value).rejects.toMatchObject({ code: 'idempotency_in_progress' });
      expect(await written.mock.results[1].value).toBe('written');
    });
  });

  describe('refusals, in the contract order; a refused push changes nothing', () => {
    it('422 idempotency_key_required (missing or null); 400 idempotency_key_invalid', async () => {
      const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
      expectError(await pushLead(t, ws.key, c.id, { phone: '+14155552671' }), 422, 'idempotency_key_required');
      expectError(await pushLead(t, ws.key, c.id, { idempotencyKey: null, phone: '+14155552671' }), 422, 'idempotency_key_required');
      for (const key of ['', 'x'.repeat(201), 'clé', 'line\nbreak', 12]) {
        expectError(await pushLead(t, ws.key, c.id, { idempotencyKey: key, phone: '+14155552671' }), 400, 'idempotency_key_invalid');
      }
      expect((await pushLead(t, ws.key, c.id, { idempotencyKey: 'x'.repeat(200), phone: '+14155552671' })).status).toBe(201);
      expect(await countContacts(t, c.id)).toBe(1);
    });

    it('422 invalid_body with issues (the body shape comes before the campaign)', async () => {
      const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
      const cases: Array<[unknown, string]> = [
        [{ idempotencyKey: 'k' }, 'phone'],
        [{ idempotencyKey: 'k', phone: 14155552671 }, 'phone'],
        [{ idempotencyKey: 'k', phone: '+14155552671', name: 5 }, 'name'],
        [{ idempotencyKey: 'k', phone: '+14155552671', fields: 'x' }, 'fields'],
        [{ idempotencyKey: 'k', phone: '+14155552671', fields: { nested: { a: 1 } } }, 'fields'],
        [{ idempotencyKey: 'k', phone: '+14155552671', fields: { long: 'x'.repeat(2001) } }, 'fields'],
        [{ idempotencyKey: 'k', phone: '+14155552671', extra: true }, 'extra'],
      ];
      for (const [body, path] of cases) {
        const res = await pushLead(t, ws.key, c.id, body as Record<string, unknown>);
        expectError(res, 422, 'invalid_body');
        expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(path);
      }
      const array = await t.http.post(`/v1/campaigns/${c.id}/leads`).set(bearer(ws.key)).send([{ idempotencyKey: 'k' }]);
      expectError(array, 422, 'invalid_body');
      // shape before lookup: an unknown campaign still answers the body's problem
      expectError(await pushLead(t, ws.key, '7a0e6f43-4f43-4a8e-9a55-3c1f0f1b0a01', { idempotencyKey: 'k' }), 422, 'invalid_body');
      expect(await countContacts(t, c.id)).toBe(0);
    });

    it('404 campaign_not_found: unknown, malformed, another workspace’s', async () => {
      const other = await t.seed();
      const foreign = await runningApiCampaign(t, other.key, other.workspaceId);
      const lead = { idempotencyKey: 'k', phone: '+14155552671' };
      expectError(await pushLead(t, ws.key, '7a0e6f43-4f43-4a8e-9a55-3c1f0f1b0a01', lead), 404, 'campaign_not_found');
      expectError(await pushLead(t, ws.key, 'not-a-uuid', lead), 404, 'campaign_not_found');
      expectError(await pushLead(t, ws.key, foreign.id, lead), 404, 'campaign_not_found');
      expect(await countContacts(t, foreign.id)).toBe(0);
    });

    it('409 campaign_not_accepting under `code`, with reason not_api or the status', async () => {
      const csv = await createCampaign(t, ws.key, { source: 'CSV' });
      await addContacts(t, ws.key, csv.id, ['+14155550101']);
      const lead = { idempotencyKey: 'k', phone: '+14155552671' };
      let res = await pushLead(t, ws.key, csv.id, lead);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'campaign_not_accepting', reason: 'not_api', requestId: expect.any(String) });
      expect(res.body.error).toBeUndefined();

      const draft = await createCampaign(t, ws.key, { source: 'API' });
      res = await pushLead(t, ws.key, draft.id, lead);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'campaign_not_accepting', reason: 'DRAFT' });

      const running = await runningApiCampaign(t, ws.key, ws.workspaceId);
      expect((await t.http.post(`/campaigns/${running.id}/pause`).set(bearer(ws.key))).status).toBe(200);
      res = await pushLead(t, ws.key, running.id, lead);
      expect(res.body).toMatchObject({ code: 'campaign_not_accepting', reason: 'PAUSED' });
      expect((await t.http.post(`/campaigns/${running.id}/stop`).set(bearer(ws.key))).status).toBe(200);
      res = await pushLead(t, ws.key, running.id, lead);
      expect(res.body).toMatchObject({ code: 'campaign_not_accepting', reason: 'CANCELED' });
      // the campaign check comes before the phone
      res = await pushLead(t, ws.key, running.id, { idempotencyKey: 'k', phone: 'nope' });
      expect(res.body.code).toBe('campaign_not_accepting');
      expect(await countContacts(t, csv.id)).toBe(1);
      expect(await countContacts(t, draft.id)).toBe(0);
      expect(await countContacts(t, running.id)).toBe(0);
    });

    it('422 invalid_phone; the campaign countryCode is the default region', async () => {
      const c = await runningApiCampaign(t, ws.key, ws.workspaceId, { countryCode: '+44' });
      for (const phone of ['nope', '123', '+1 555', '']) {
        const res = await pushLead(t, ws.key, c.id, { idempotencyKey: `k-${phone}`, phone });
        expectError(res, 422, phone === '' ? 'invalid_body' : 'invalid_phone');
      }
      const uk = await pushLead(t, ws.key, c.id, { idempotencyKey: 'uk', phone: '020 7946 0018' });
      expect(uk.status).toBe(201);
      expect(uk.body.phone).toBe('+442079460018');
      expect(await countContacts(t, c.id)).toBe(1);
    });

    it('403 forbidden for a key without campaigns.edit', async () => {
      const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
      const viewer = await t.addKey(ws.workspaceId, { scopes: ['campaigns.view'] });
      const res = await pushLead(t, viewer.key, c.id, { idempotencyKey: 'k', phone: '+14155552671' });
      expectError(res, 403, 'forbidden');
      expect(res.body.requiredPermission).toBe('campaigns.edit');
      expect(await countContacts(t, c.id)).toBe(0);
    });
  });

  describe('GET /v1/campaigns/{id}/leads/{leadId}', () => {
    it('404 lead_not_found: unknown, malformed, a list contact, another campaign’s lead; 404 campaign_not_found', async () => {
      const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
      const other = await runningApiCampaign(t, ws.key, ws.workspaceId);
      const lead = await pushLead(t, ws.key, other.id, { idempotencyKey: 'k', phone: '+14155552671' });
      const csv = await createCampaign(t, ws.key, { source: 'CSV' });
      await addContacts(t, ws.key, csv.id, ['+14155550101']);
      const [csvContact] = await t.dataSource.query(`SELECT id FROM campaign_contacts WHERE campaign_id = $1`, [csv.id]);
      const get = (campaignId: string, leadId: string) => t.http.get(`/v1/campaigns/${campaignId}/leads/${leadId}`).set(bearer(ws.key));

      expectError(await get(c.id, '7a0e6f43-4f43-4a8e-9a55-3c1f0f1b0a01'), 404, 'lead_not_found');
      expectError(await get(c.id, 'nope'), 404, 'lead_not_found');
      expectError(await get(c.id, lead.body.id), 404, 'lead_not_found');
      expectError(await get(csv.id, csvContact.id), 404, 'lead_not_found');
      expectError(await get('7a0e6f43-4f43-4a8e-9a55-3c1f0f1b0a01', lead.body.id), 404, 'campaign_not_found');
      expect((await get(other.id, lead.body.id)).status).toBe(200);
    });
  });

  describe('POST /v1/campaigns/{id}/leads/batch', () => {
    it('per-item results: created, replayed, each item’s own error', async () => {
      const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
      expect((await pushLead(t, ws.key, c.id, { idempotencyKey: 'old', phone: '+14155550001' })).status).toBe(201);
      const res = await t.http
        .post(`/v1/campaigns/${c.id}/leads/batch`)
        .set(bearer(ws.key))
        .send({
          leads: [
            { idempotencyKey: 'b1', phone: '+14155550002', name: 'One' },
            { idempotencyKey: 'old', phone: '+14155550001' },
            { idempotencyKey: 'old', phone: '+14155550003' },
            { phone: '+14155550004' },
            { idempotencyKey: 'b5', phone: 'nope' },
            { idempotencyKey: 'b6', phone: 5 },
            { idempotencyKey: 'b1', phone: '+14155550002', name: 'One' },
            { idempotencyKey: 'x'.repeat(201), phone: '+14155550005' },
          ],
        });
      expect(res.status).toBe(200);
      const r = res.body.results;
      expect(r.map((i: { status: number; error?: string }) => [i.status, i.error ?? null])).toEqual([
        [201, null],
        [200, null],
        [422, 'idempotency_key_reused'],
        [422, 'idempotency_key_required'],
        [422, 'invalid_phone'],
        [422, 'invalid_body'],
        [200, null],
        [400, 'idempotency_key_invalid'],
      ]);
      expect(r[5].issues.length).toBeGreaterThan(0);
      expect(r[5].issues.every((i: { path: string }) => i.path === 'leads.5.phone')).toBe(true);
      expect(r[0].leadId).toBe(r[6].leadId);
      expect(res.body).toMatchObject({ created: 1, replayed: 2, failed: 5 });
      expect(await countContacts(t, c.id)).toBe(2);
    });

    it('422 invalid_body for an empty batch, more than 500 leads or a missing list; 409/404 for the campaign', async () => {
      const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
      const post = (campaignId: string, body: unknown) => t.http.post(`/v1/campaigns/${campaignId}/leads/batch`).set(bearer(ws.key)).send(body as object);
      expectError(await post(c.id, { leads: [] }), 422, 'invalid_body');
      expectError(await post(c.id, {}), 422, 'invalid_body');
      expectError(await post(c.id, { leads: [{ idempotencyKey: 'a', phone: '+14155550002' }], more: 1 }), 422, 'invalid_body');
      const many = Array.from({ length: 501 }, (_, i) => ({ idempotencyKey: `k${i}`, phone: `+1415555${String(1000 + i)}` }));
      expectError(await post(c.id, { leads: many }), 422, 'invalid_body');
      expect(await countContacts(t, c.id)).toBe(0);

      const csv = await createCampaign(t, ws.key, { source: 'CSV' });
      const refused = await post(csv.id, { leads: [{ idempotencyKey: 'a', phone: '+14155550002' }] });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'campaign_not_accepting', reason: 'not_api' });
      expectError(await post('7a0e6f43-4f43-4a8e-9a55-3c1f0f1b0a01', { leads: [{ idempotencyKey: 'a', phone: '+14155550002' }] }), 404, 'campaign_not_found');
    });

    it('500 leads in one batch', async () => {
      const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
      const leads = Array.from({ length: 500 }, (_, i) => ({ idempotencyKey: `k${i}`, phone: randomE164() }));
      const res = await t.http.post(`/v1/campaigns/${c.id}/leads/batch`).set(bearer(ws.key)).send({ leads });
      expect(res.status).toBe(200);
      expect(res.body.failed).toBe(0);
      expect(await countContacts(t, c.id)).toBe(res.body.created);
      expect(res.body.created + res.body.replayed).toBe(500);
      expect((await readCampaign(t, ws.key, c.id)).contactCount).toBe(res.body.created);
    });
  });
});
