// The engine's message legs end to end (decisions.md 33): campaigns of each of the six channels run
// by the real worker (dispatcher, attempts, messaging's SendMessage and sandboxes, their reports) on
// the real Postgres and Redis, with a FixedClock the test moves instead of sleeping.
process.env.DISPATCH_TICK_MS = '100';
process.env.REAPER_INTERVAL_MS = '3600000'; // the tests run the reaper themselves

import { EngineMaintenance, ExecuteAttempt, MESSAGE_REPORT_PATIENCE_MS, ReapStuckAttempts } from '@outreach/engine';
import { Clock, FixedClock } from '@outreach/platform';
import { attachNumber, createCampaign, credit } from '../campaigns/campaign-helpers';
import { createActiveAgent } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { connectSender, createTemplate } from '../messaging/messaging-helpers';
import { pushLead, runningApiCampaign } from '../results/results-helpers';
import { CountingVoiceProvider, dispatcher, EngineProbe, sandboxFor, sandboxNumber, startCampaign, startWorker, waitFor } from './engine-harness';

const MONDAY_10_UTC = new Date('2026-11-23T10:00:00Z');
const DAY = 86_400_000;

interface LegRow {
  phone: string;
  email: string | null;
  status: string;
  last_outcome: string | null;
  leg: string | null;
  message_outcome: string | null;
  calls: number;
  messages: number;
  message_statuses: string[];
}

describe('message legs in the engine (WhatsApp, email, mixed channels)', () => {
  const clock = new FixedClock(MONDAY_10_UTC);
  const voice = new CountingVoiceProvider(sandboxFor(clock));
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;
  let probe: EngineProbe;
  let kick: ReturnType<typeof dispatcher>;
  let templateId: string;

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock) });
    worker = await startWorker({ clock, voice });
    probe = new EngineProbe(t);
    kick = dispatcher(worker);
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });
  beforeEach(async () => {
    clock.set(MONDAY_10_UTC);
    voice.reset();
    await t.reset();
    ws = await t.seed({ features: ['whatsapp', 'email', 'api_results'] });
    await credit(t, ws.workspaceId, 1_000_000);
    const k = bearer(ws.key);
    const sender = await connectSender(t, ws.key, '+14155550194');
    await waitFor('the sender to connect', async () => (await t.http.get(`/whatsapp/senders/${sender.id}`).set(k)).body.status, (s) => s === 'CONNECTED');
    const template = await createTemplate(t, ws.key, {
      body: 'Hi {{1}}, we tried to reach you. {{2}}',
      bindings: [
        { placeholder: 1, source: 'CONTACT_FIELD', value: 'name' },
        { placeholder: 2, source: 'CONSTANT', value: 'Acme' },
      ],
    });
    templateId = template.id as string;
    await t.http.post(`/whatsapp/templates/${templateId}/submit`).set(k);
    await waitFor('the template to be approved', async () => (await t.http.get(`/whatsapp/templates/${templateId}`).set(k)).body.status, (s) => s === 'APPROVED');
  });

  async function emailSetup(): Promise<void> {
    const k = bearer(ws.key);
    const smtp = { host: 'smtp.example.com', port: 587, username: 'u', password: 'p4ssword', secure: false };
    expect((await t.http.post('/email/senders').set(k).send({ fromAddress: 'sales@example.com', displayName: 'Acme', replyTo: null, smtp })).status).toBe(201);
    const template = { name: 'Offer', subject: 'For {{1}}', htmlBody: '<p>Hi {{1}}</p>', textBody: 'Hi {{1}}', bindings: [{ placeholder: 1, source: 'CONTACT_FIELD', value: 'name' }] };
    expect((await t.http.post('/email/templates').set(k).send(template)).status).toBe(201);
  }

  /** A campaign of `channel` with 20 contacts whose numbers end 0-9 twice (email: bounce / complain / plain by digit); started. */
  async function runCampaign(channel: string, settings: Record<string, unknown> = {}, contactCount = 20, lastDigit = (i: number) => i % 10): Promise<string> {
    const voiceLeg = channel.includes('VOICE');
    const agent = voiceLeg ? await createActiveAgent(t, ws.key, {}) : null;
    const campaign = await createCampaign(t, ws.key, {
      channel,
      ...(agent ? { agentId: agent.id } : {}),
      ...(channel.includes('WHATSAPP') ? { whatsappOutreachTemplateId: templateId } : {}),
      timezone: 'UTC',
      dailyWindowStart: '00:00',
      dailyWindowEnd: '00:00',
      recipientHours: 'off',
      retryCount: 0,
      cooldownMinutes: 5,
      ...settings,
    });
    if (voiceLeg) await attachNumber(t, ws.key, ws.workspaceId, campaign.id);
    const contacts = Array.from({ length: contactCount }, (_, i) => ({
      phone: sandboxNumber(i, lastDigit(i)),
      name: `Contact ${i}`,
      fields: { email: `${i % 10 === 0 ? 'bounce' : i % 10 === 1 ? 'complain' : 'plain'}.${i}@example.com` },
    }));
    const res = await t.http.post(`/campaigns/${campaign.id}/contacts`).set(bearer(ws.key)).send(contacts);
    expect(res.status).toBe(201);
    await startCampaign(t, ws, campaign.id, { reservedConcurrency: 10 });
    return campaign.id as string;
  }

  /**
   * Runs the campaign to COMPLETED: waits until nothing is in flight, moves the clock to the earliest
   * instant a contact is due (its retry, its cooldown), and dispatches — until the campaign completes.
   */
  async function drive(campaignId: string, options: { maxRounds?: number; until?: () => Promise<boolean> } = {}): Promise<void> {
    const maxRounds = options.maxRounds ?? 60;
    const done = options.until ?? (async () => (await probe.campaignStatus(campaignId)) === 'COMPLETED');
    for (let round = 0; round < maxRounds; round++) {
      await waitFor('no attempt in flight', () => probe.settled(campaignId), Boolean);
      if (await done()) return;
      const [due]: Array<{ at: Date | null }> = await t.dataSource.query(
        `SELECT min(GREATEST(COALESCE(next_attempt_at, 'epoch'), COALESCE(last_attempt_at + interval '5 minutes', 'epoch'))) AS at
           FROM campaign_contacts WHERE campaign_id = $1 AND status IN ('PENDING', 'RETRY_SCHEDULED')`,
        [campaignId],
      );
      if (due.at && new Date(due.at).getTime() > clock.now().getTime()) clock.set(new Date(due.at));
      await kick(campaignId);
    }
    throw new Error(`campaign ${campaignId} did not complete in ${maxRounds} rounds: ${JSON.stringify(await probe.statusCounts(campaignId))}`);
  }

  async function legs(campaignId: string): Promise<LegRow[]> {
    return t.dataSource.query(
      `SELECT c.phone, c.fields->>'email' AS email, c.status, c.last_outcome, c.leg, c.message_outcome,
              (SELECT count(*)::int FROM calls k WHERE k.contact_id = c.id) AS calls,
              (SELECT count(*)::int FROM messages m WHERE m.direction = 'OUTBOUND' AND m.idempotency_key LIKE 'leg-' || c.id || '-%') AS messages,
              ARRAY(SELECT m.status FROM messages m WHERE m.direction = 'OUTBOUND' AND m.idempotency_key LIKE 'leg-' || c.id || '-%' ORDER BY m.created_at) AS message_statuses
         FROM campaign_contacts c WHERE c.campaign_id = $1 ORDER BY c.seq`,
      [campaignId],
    );
  }

  const digitOf = (phone: string) => Number(phone.slice(-1));
  it('WHATSAPP: one templated message per contact; 0 undelivered and 1 refused for now fail, the rest complete; each accepted message billed once', async () => {
    const campaignId = await runCampaign('WHATSAPP');
    await drive(campaignId);
    const rows = await legs(campaignId);
    expect(rows).toHaveLength(20);
    for (const row of rows) {
      const digit = digitOf(row.phone);
      expect({ phone: row.phone, calls: row.calls, messages: row.messages }).toEqual({ phone: row.phone, calls: 0, messages: 1 });
      if (digit === 0) expect(row).toMatchObject({ status: 'FAILED', last_outcome: 'message_undelivered', message_statuses: ['FAILED'] });
      // Refused for now on every try: the SAME message tried 1 + messageRetryTransientMaxAttempts (5) times, never sent.
      else if (digit === 1) expect(row).toMatchObject({ status: 'FAILED', last_outcome: 'message_provider_unavailable', message_statuses: ['QUEUED'] });
      else {
        // The zero-latency sandbox reports a message's delivery, reading and reply together, applied in order in one
        // batch (decisions.md 47.18): the leg settles on all of them — replied, else read, else delivered.
        const expected = digit === 2 ? ['DELIVERED', 'delivered'] : [4, 5, 6].includes(digit) ? ['READ', 'replied'] : ['READ', 'read'];
        expect({ phone: row.phone, status: row.status, messageStatus: row.message_statuses[0], outcome: row.message_outcome }).toEqual({
          phone: row.phone,
          status: 'COMPLETED',
          messageStatus: expected[0],
          outcome: expected[1],
        });
      }
    }
    expect(await probe.statusCounts(campaignId)).toEqual({ COMPLETED: 16, FAILED: 4 });
    // Billed per message the provider accepted (18: not the two refused for now), one ledger row each.
    const ledger = await probe.wallet(ws.workspaceId);
    expect(ledger.debitCount).toBe(18);
    expect(ledger.credits - ledger.debits).toBe(ledger.balance);
    // Digit 1: six tries (the first and five transient retries), each claim an attempt.
    const one = await t.dataSource.query(`SELECT attempts FROM campaign_contacts WHERE campaign_id = $1 AND phone LIKE '%1' LIMIT 1`, [campaignId]);
    expect(one[0].attempts).toBe(6);
  });

  it('EMAIL: one email per contact to its `email` field; a hard bounce fails, a complaint still completes (and opts out)', async () => {
    await emailSetup();
    const campaignId = await runCampaign('EMAIL');
    await drive(campaignId);
    const rows = await legs(campaignId);
    for (const row of rows) {
      expect({ phone: row.phone, calls: row.calls, messages: row.messages }).toEqual({ phone: row.phone, calls: 0, messages: 1 });
      if (row.email!.startsWith('bounce')) expect(row).toMatchObject({ status: 'FAILED', last_outcome: 'message_undelivered', message_statuses: ['FAILED'] });
      else expect(row).toMatchObject({ status: 'COMPLETED', message_statuses: ['DELIVERED'] });
    }
    expect(await probe.statusCounts(campaignId)).toEqual({ COMPLETED: 18, FAILED: 2 });
    expect((await probe.wallet(ws.workspaceId)).debitCount).toBe(20);
    const optOuts = await t.dataSource.query(`SELECT address FROM message_opt_outs WHERE workspace_id = $1 ORDER BY address`, [ws.workspaceId]);
    expect(optOuts.map((o: { address: string }) => o.address).sort()).toEqual(['complain.1@example.com', 'complain.11@example.com'].sort());
  });

  it('VOICE: calls only, no message', async () => {
    const campaignId = await runCampaign('VOICE');
    await drive(campaignId);
    for (const row of await legs(campaignId)) {
      expect({ phone: row.phone, calls: row.calls, messages: row.messages, status: row.status }).toEqual({
        phone: row.phone,
        calls: 1,
        messages: 0,
        status: digitOf(row.phone) <= 3 ? 'FAILED' : 'COMPLETED',
      });
    }
  });

  it('VOICE_THEN_WHATSAPP: the WhatsApp leg follows a call unanswered (0) or in voicemail (2); busy (1) only with messageDeclinedLeads', async () => {
    const campaignId = await runCampaign('VOICE_THEN_WHATSAPP');
    await drive(campaignId);
    for (const row of await legs(campaignId)) {
      const digit = digitOf(row.phone);
      const followed = digit === 0 || digit === 2;
      expect({ phone: row.phone, calls: row.calls, messages: row.messages }).toEqual({ phone: row.phone, calls: 1, messages: followed ? 1 : 0 });
      if (digit === 0) expect(row).toMatchObject({ status: 'FAILED', leg: 'WHATSAPP', last_outcome: 'message_undelivered' });
      else if (digit === 2) expect(row).toMatchObject({ status: 'COMPLETED', leg: 'WHATSAPP' });
      else expect(row).toMatchObject({ status: digit <= 3 ? 'FAILED' : 'COMPLETED', leg: null });
    }
    expect(await probe.statusCounts(campaignId)).toEqual({ COMPLETED: 14, FAILED: 6 });

    // messageDeclinedLeads: a declined call (busy: the callee rejected it) gets the WhatsApp leg too.
    const declined = await runCampaign('VOICE_THEN_WHATSAPP', { messageDeclinedLeads: true }, 2);
    await drive(declined);
    const busy = (await legs(declined)).find((r) => digitOf(r.phone) === 1)!;
    expect(busy).toMatchObject({ calls: 1, messages: 1, leg: 'WHATSAPP' });
  });

  it("WHATSAPP_THEN_VOICE: calls, after the MESSAGE_REPLY rule's window (default one day), only contacts who did not reply; undelivered ones at once", async () => {
    const campaignId = await runCampaign('WHATSAPP_THEN_VOICE');
    await drive(campaignId);
    for (const row of await legs(campaignId)) {
      const digit = digitOf(row.phone);
      const replied = digit >= 4 && digit <= 6;
      expect({ phone: row.phone, calls: row.calls, messages: row.messages }).toEqual({ phone: row.phone, calls: replied ? 0 : 1, messages: 1 });
      if (replied) expect(row).toMatchObject({ status: 'COMPLETED', last_outcome: 'replied', message_outcome: 'replied' });
      else expect(row).toMatchObject({ leg: 'VOICE', status: digit <= 3 ? 'FAILED' : 'COMPLETED' });
    }
    expect(await probe.statusCounts(campaignId)).toEqual({ COMPLETED: 12, FAILED: 8 });
    // The calls after a delivered message waited for the window; those after an undelivered one did not.
    const calls: Array<{ to_number: string; started_at: Date }> = await t.dataSource.query(`SELECT to_number, started_at FROM calls WHERE campaign_id = $1`, [campaignId]);
    for (const call of calls) {
      const digit = digitOf(call.to_number);
      if (digit >= 2) expect(call.started_at.getTime()).toBeGreaterThanOrEqual(MONDAY_10_UTC.getTime() + DAY);
      else expect(call.started_at.getTime()).toBeLessThan(MONDAY_10_UTC.getTime() + DAY);
    }
  });

  it("whatsappTemplateByMetric: a follow-up waits for its call's analysis and takes the template its evaluation names", async () => {
    const k = bearer(ws.key);
    const approved = async (name: string) => {
      const template = await createTemplate(t, ws.key, { name, body: 'Hi {{1}}', bindings: [{ placeholder: 1, source: 'CONTACT_FIELD', value: 'name' }] });
      await t.http.post(`/whatsapp/templates/${template.id}/submit`).set(k);
      await waitFor(`${name} approved`, async () => (await t.http.get(`/whatsapp/templates/${template.id}`).set(k)).body.status, (st) => st === 'APPROVED');
      return template.id as string;
    };
    const byMood = { calm: await approved('mood_calm'), upbeat: await approved('mood_upbeat') };
    const metrics = [{ key: 'mood', label: 'Mood', allowedValues: ['calm', 'upbeat'], prompt: 'The mood of the call' }];
    // Voicemails (digit 2) have a transcript: analysed. Six of them, so both moods come up. The
    // mapping goes through the campaign body (decisions.md 33.17) and comes back as sent.
    const campaignId = await runCampaign('VOICE_THEN_WHATSAPP', { evaluationMetrics: metrics, whatsappTemplateByMetric: { mood: byMood } }, 6, () => 2);
    expect((await t.http.get(`/v1/campaigns/${campaignId}`).set(k)).body.whatsappTemplateByMetric).toEqual({ mood: byMood });
    await drive(campaignId);
    const sent: Array<{ mood: string | null; template_id: string }> = await t.dataSource.query(
      `SELECT k.evaluation->>'mood' AS mood, m.template_id
         FROM campaign_contacts c JOIN calls k ON k.contact_id = c.id
         JOIN messages m ON m.direction = 'OUTBOUND' AND m.idempotency_key LIKE 'leg-' || c.id || '-%'
        WHERE c.campaign_id = $1`,
      [campaignId],
    );
    expect(sent).toHaveLength(6);
    for (const row of sent) expect(row.template_id).toBe(byMood[row.mood as 'calm' | 'upbeat']);
    expect(new Set(sent.map((r) => r.mood)).size).toBe(2);
  });

  it('whatsappTemplateByMetric in the campaign body: bounds → 400 invalid_body (nothing changed); each mapped template is checked at start like the outreach template', async () => {
    const k = bearer(ws.key);
    const agent = await createActiveAgent(t, ws.key, {});
    const campaign = await createCampaign(t, ws.key, { channel: 'VOICE_THEN_WHATSAPP', agentId: agent.id, whatsappOutreachTemplateId: templateId, timezone: 'UTC', dailyWindowStart: '00:00', dailyWindowEnd: '00:00', recipientHours: 'off' });
    const bad = [
      'calm',
      ['x'],
      { mood: 'calm' },
      { mood: {} },
      { mood: { calm: 7 } },
      { mood: { calm: '' } },
      { mood: { calm: 'x'.repeat(101) } },
      { '': { calm: templateId } },
      Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`m${i}`, { v: templateId }])),
      { mood: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`v${i}`, templateId])) },
    ];
    for (const value of bad) {
      const res = await t.http.patch(`/v1/campaigns/${campaign.id}`).set(k).send({ whatsappTemplateByMetric: value });
      expect({ value, status: res.status, error: res.body.error }).toEqual({ value, status: 400, error: 'invalid_body' });
    }
    const refusedCreate = await t.http.post('/v1/campaigns').set(k).send({ name: 'by metric bad', channel: 'VOICE_THEN_WHATSAPP', source: 'CSV', whatsappTemplateByMetric: { mood: [] } });
    expect({ status: refusedCreate.status, error: refusedCreate.body.error }).toEqual({ status: 400, error: 'invalid_body' });
    expect((await t.http.get(`/v1/campaigns/${campaign.id}`).set(k)).body.whatsappTemplateByMetric).toBeNull();

    const draft = await createTemplate(t, ws.key, { name: 'mood_draft', body: 'Hi {{1}}', bindings: [{ placeholder: 1, source: 'CONTACT_FIELD', value: 'name' }] });
    const start = () => t.http.post(`/campaigns/${campaign.id}/start`).set(k).send({ reservedConcurrency: 1 });
    await attachNumber(t, ws.key, ws.workspaceId, campaign.id);
    expect((await t.http.post(`/campaigns/${campaign.id}/contacts`).set(k).send([{ phone: sandboxNumber(0, 2), name: 'A' }])).status).toBe(201);
    const cases: Array<[Record<string, Record<string, string>>, string]> = [
      [{ mood: { calm: templateId, upbeat: draft.id as string } }, 'outreach_template_not_approved'],
      [{ mood: { calm: '00000000-0000-4000-8000-0000000000ff' } }, 'campaign_channel_needs_template'],
    ];
    for (const [mapping, code] of cases) {
      expect((await t.http.patch(`/v1/campaigns/${campaign.id}`).set(k).send({ whatsappTemplateByMetric: mapping })).status).toBe(200);
      const refused = await start();
      expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: code });
      expect((await t.http.get(`/v1/campaigns/${campaign.id}`).set(k)).body.status).toBe('DRAFT');
    }
    // null clears it; then the campaign starts.
    const cleared = await t.http.patch(`/v1/campaigns/${campaign.id}`).set(k).send({ whatsappTemplateByMetric: null });
    expect({ status: cleared.status, value: cleared.body.whatsappTemplateByMetric }).toEqual({ status: 200, value: null });
    expect((await start()).status).toBe(200);
  });

  it('a message attempt run again (its job after a worker died, a report, the reaper) sends nothing twice and bills once', async () => {
    const campaignId = await runCampaign('WHATSAPP', {}, 1, () => 7);
    await drive(campaignId);
    const [contact] = await probe.contacts(campaignId);
    expect((await legs(campaignId))[0]).toMatchObject({ status: 'COMPLETED', messages: 1 });
    // As if the worker had died after the message was SENT and billed but before the contact was settled.
    await t.dataSource.query(
      `UPDATE campaign_contacts SET status = 'IN_PROGRESS', leg = NULL, message_sends = 0, message_leg_at = NULL, attempt_deadline_at = $2 WHERE id = $1`,
      [contact.id, new Date(clock.now().getTime() - 1000)],
    );
    await t.dataSource.query(`UPDATE campaigns SET status = 'RUNNING', ended_at = NULL WHERE id = $1`, [campaignId]);
    const report = await worker.get(ReapStuckAttempts).execute();
    expect(report).toMatchObject({ recovered: 1, released: 0 });
    expect((await legs(campaignId))[0]).toMatchObject({ status: 'COMPLETED', messages: 1, message_outcome: expect.stringMatching(/^(delivered|read)$/) });
    expect((await probe.wallet(ws.workspaceId)).debitCount).toBe(1);
    const [{ attempt_seq }] = await t.dataSource.query(`SELECT attempt_seq FROM campaign_contacts WHERE id = $1`, [contact.id]);
    expect(attempt_seq).toBe(contact.attempt_seq);
  });

  it("a leg whose report is overdue (MESSAGE_REPORT_PATIENCE_MS since its claim) is settled by the worker's maintenance from its message, once; a younger one is left to its report (decisions.md 47.17)", async () => {
    const campaignId = await runCampaign('WHATSAPP', {}, 1, () => 7);
    await drive(campaignId);
    const [contact] = await probe.contacts(campaignId);
    // As if the provider's reports had been lost: the leg IN_PROGRESS on its message, claimed just inside the patience.
    const reopen = async (claimedAgoMs: number) => {
      await t.dataSource.query(
        `UPDATE campaign_contacts SET status = 'IN_PROGRESS', leg = NULL, message_sends = 0, message_leg_at = NULL,
                attempt_started_at = $2, attempt_deadline_at = $3 WHERE id = $1`,
        [contact.id, new Date(clock.now().getTime() - claimedAgoMs), new Date(clock.now().getTime() + 3_600_000)],
      );
      await t.dataSource.query(`UPDATE campaigns SET status = 'RUNNING', ended_at = NULL WHERE id = $1`, [campaignId]);
    };
    const reaper = worker.get(ReapStuckAttempts);
    // The worker's own maintenance timer would run the same step: paused, so the counts are this test's.
    const maintenance = worker.get(EngineMaintenance);
    await maintenance.onApplicationShutdown();
    try {
      await reopen(MESSAGE_REPORT_PATIENCE_MS - 1_000);
      expect(await reaper.settleOverdueLegs()).toBe(0);
      expect((await legs(campaignId))[0]).toMatchObject({ status: 'IN_PROGRESS' });

      await reopen(MESSAGE_REPORT_PATIENCE_MS + 1_000);
      expect(await reaper.settleOverdueLegs()).toBe(1);
      expect((await legs(campaignId))[0]).toMatchObject({ status: 'COMPLETED', messages: 1 });
      expect(await reaper.settleOverdueLegs()).toBe(0);
      expect((await probe.wallet(ws.workspaceId)).debitCount).toBe(1);
    } finally {
      maintenance.onApplicationBootstrap();
    }
  });

  it('message legs claimed together go out as one message-batch job; a batch run again replays, and a contact off the common path takes the single path (decisions.md 47.1)', async () => {
    const campaignId = await runCampaign('WHATSAPP', {}, 4, () => 7);
    await drive(campaignId);
    // Four contacts claimed in one dispatch run: one batch job, no attempt job.
    const jobs: Array<{ name: string; n: number }> = await t.dataSource.query(
      `SELECT name, count(*)::int AS n FROM outbox WHERE name IN ('attempt', 'message-batch') GROUP BY name ORDER BY name`,
    );
    expect(jobs).toEqual([{ name: 'message-batch', n: 1 }]);
    expect((await legs(campaignId)).map((r) => [r.status, r.messages])).toEqual(Array.from({ length: 4 }, () => ['COMPLETED', 1]));

    // As if the batch job had died after sending, before its contacts were settled; meanwhile the
    // fourth contact's number was put on the do-not-call list and the third's attempt moved on.
    const contacts = await probe.contacts(campaignId);
    await t.dataSource.query(`UPDATE campaign_contacts SET status = 'IN_PROGRESS', leg = NULL, message_sends = 0, message_leg_at = NULL WHERE campaign_id = $1`, [campaignId]);
    await t.dataSource.query(`UPDATE campaigns SET status = 'RUNNING', ended_at = NULL WHERE id = $1`, [campaignId]);
    expect((await t.http.post('/dnc').set(bearer(ws.key)).send({ phone: contacts[3].phone })).status).toBe(201);
    const reports = await worker.get(ExecuteAttempt).executeMessages([
      ...contacts.slice(0, 2).map((c) => ({ contactId: c.id, attemptSeq: c.attempt_seq })),
      { contactId: contacts[2].id, attemptSeq: contacts[2].attempt_seq + 1 },
      { contactId: contacts[3].id, attemptSeq: contacts[3].attempt_seq },
    ]);
    expect(reports.map((r) => (r.state === 'message' ? r.report.state : r.state))).toEqual(['settled', 'settled', 'stale', 'do_not_call']);
    const rows = await legs(campaignId);
    expect(rows.map((r) => [r.status, r.messages])).toEqual([
      ['COMPLETED', 1],
      ['COMPLETED', 1],
      ['IN_PROGRESS', 1],
      ['DO_NOT_CALL', 1],
    ]);
    // Nothing was sent or billed again.
    expect((await probe.wallet(ws.workspaceId)).debitCount).toBe(4);
  });

  it('dailyMessageCap: at most that many messages a local day; the rest go the next day', async () => {
    const campaignId = await runCampaign('WHATSAPP', { dailyMessageCap: 3 }, 5, () => 7);
    await kick(campaignId); // claims the three, unless the worker's own dispatch did
    await waitFor('three sent', () => probe.statusCounts(campaignId), (c) => c.COMPLETED === 3);
    expect(await kick(campaignId)).toMatchObject({ state: 'daily_cap_reached', claimed: 0 });
    expect(await probe.statusCounts(campaignId)).toEqual({ COMPLETED: 3, PENDING: 2 });
    // The next local day (UTC): the other two.
    clock.set(new Date('2026-11-24T00:00:00Z'));
    await drive(campaignId);
    const days: Array<{ day: string; n: number }> = await t.dataSource.query(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS n FROM messages
        WHERE direction = 'OUTBOUND' AND workspace_id = $1 GROUP BY 1 ORDER BY 1`,
      [ws.workspaceId],
    );
    expect(days).toEqual([{ day: '2026-11-23', n: 3 }, { day: '2026-11-24', n: 2 }]);
  });

  it('message retries on the clock: undelivered re-sent at messageRetryDelaysSeconds (tiered), within the window; transient refusals retried apart', async () => {
    const settings = {
      messageRetryEnabled: true,
      messageRetryTieredEnabled: true,
      messageRetryMaxAttempts: 2,
      messageRetryIntervalSeconds: 3000,
      messageRetryDelaysSeconds: [600, 1200],
      messageRetryWindowSeconds: 86400,
      messageRetryTransientMaxAttempts: 2,
    };
    const campaignId = await runCampaign('WHATSAPP', settings, 2); // numbers ending 0 (undelivered) and 1 (refused for now)
    await kick(campaignId);
    await waitFor('first tries settled', () => probe.statusCounts(campaignId), (c) => c.RETRY_SCHEDULED === 2);
    const row = async (digit: number) => (await probe.contacts(campaignId)).find((c) => digitOf(c.phone) === digit)!;
    const T0 = MONDAY_10_UTC.getTime();
    expect(await row(0)).toMatchObject({ status: 'RETRY_SCHEDULED', next_attempt_at: new Date(T0 + 600_000) });
    expect(await row(1)).toMatchObject({ status: 'RETRY_SCHEDULED', next_attempt_at: new Date(T0 + 30_000) });

    // One second before the undelivered retry is due (the transient one waits for the 5-minute cooldown): nothing is sent.
    clock.set(new Date(T0 + 299_000));
    expect((await kick(campaignId)).claimed).toBe(0);
    clock.set(new Date(T0 + 300_000));
    await kick(campaignId);
    await waitFor('second transient try', () => row(1), (c) => c.attempts === 2 && c.status === 'RETRY_SCHEDULED');
    expect(await row(1)).toMatchObject({ next_attempt_at: new Date(T0 + 300_000 + 60_000) });

    clock.set(new Date(T0 + 600_000));
    await kick(campaignId);
    await waitFor('re-sent once', () => row(0), (c) => c.attempts === 2 && c.status === 'RETRY_SCHEDULED');
    // The second re-send comes messageRetryDelaysSeconds[1] later.
    expect(await row(0)).toMatchObject({ next_attempt_at: new Date(T0 + 600_000 + 1_200_000) });
    await drive(campaignId);
    const rows = await legs(campaignId);
    const undelivered = rows.find((r) => digitOf(r.phone) === 0)!;
    const refused = rows.find((r) => digitOf(r.phone) === 1)!;
    // 1 + messageRetryMaxAttempts (2) messages for the undelivered; ONE message tried 1 + messageRetryTransientMaxAttempts (2) times for the refused.
    expect(undelivered).toMatchObject({ status: 'FAILED', last_outcome: 'message_undelivered', messages: 3, message_statuses: ['FAILED', 'FAILED', 'FAILED'] });
    expect(refused).toMatchObject({ status: 'FAILED', last_outcome: 'message_provider_unavailable', messages: 1, message_statuses: ['QUEUED'] });
    expect((await row(1)).attempts).toBe(3);
  });

  it('messageRetryWindowSeconds: no re-send after the first send + the window; messageRetryEnabled off: none at all', async () => {
    const windowed = await runCampaign('WHATSAPP', { messageRetryEnabled: true, messageRetryIntervalSeconds: 600, messageRetryMaxAttempts: 5, messageRetryWindowSeconds: 1000 }, 1);
    await drive(windowed);
    expect((await legs(windowed))[0]).toMatchObject({ status: 'FAILED', last_outcome: 'message_retry_window_passed', messages: 2 });
    const off = await runCampaign('WHATSAPP', { messageRetryEnabled: false, messageRetryMaxAttempts: 5 }, 1);
    await drive(off);
    expect((await legs(off))[0]).toMatchObject({ status: 'FAILED', last_outcome: 'message_undelivered', messages: 1 });
  });

  it('API leads: the /v1 result carries the message outcome', async () => {
    const campaign = await runningApiCampaign(t, ws.key, ws.workspaceId, { channel: 'WHATSAPP', whatsappOutreachTemplateId: templateId, timezone: 'UTC', retryCount: 0, cooldownMinutes: 5 });
    const phones = [sandboxNumber(0, 0), sandboxNumber(1, 3), sandboxNumber(2, 5)];
    const leads: string[] = [];
    for (const [i, phone] of phones.entries()) {
      const res = await pushLead(t, ws.key, campaign.id as string, { idempotencyKey: `lead-${i}`, phone, name: `Lead ${i}` });
      expect(res.status).toBe(201);
      leads.push(res.body.id);
    }
    await drive(campaign.id as string, {
      until: async () => Object.keys(await probe.statusCounts(campaign.id as string)).every((s) => s === 'COMPLETED' || s === 'FAILED'),
    });
    const k = bearer(ws.key);
    const messageOf = async (leadId: string) => {
      const lead = await waitFor('its result', async () => (await t.http.get(`/v1/campaigns/${campaign.id}/leads/${leadId}`).set(k)).body, (b) => Boolean(b.resultId));
      return (await t.http.get(`/v1/results/${lead.resultId}`).set(k)).body.data;
    };
    expect(await messageOf(leads[0])).toMatchObject({ status: 'failed', disposition: 'message_undelivered', finalCall: null, message: { channel: 'WHATSAPP', outcome: 'undelivered' } });
    expect(await messageOf(leads[1])).toMatchObject({ status: 'completed', message: { channel: 'WHATSAPP', outcome: expect.stringMatching(/^(delivered|read)$/) } });
    expect((await messageOf(leads[2])).message.channel).toBe('WHATSAPP');
  });
});
