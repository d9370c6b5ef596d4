// Issue 12's message drill (decisions.md 33.13-33.16): a WHATSAPP campaign sent through the Cloud
// API (Graph) adapter against the local Graph stub, by a real worker process killed with SIGKILL
// while sends are in flight, twice, then a fresh worker. Counted at the stub: every contact gets its
// message, and none gets it twice: a message the stub accepted while its row was still QUEUED (Graph
// has no idempotency key, 30.13) is adopted from Graph's status webhook naming our id
// (biz_opaque_callback_data) instead of being sent again (33.16).
import { ChildProcess } from 'node:child_process';
import { hubSignature } from '@outreach/messaging';
import { createCampaign, credit } from '../campaigns/campaign-helpers';
import { EngineProbe, startCampaign, waitFor } from '../engine/engine-harness';
import { createTemplate, CREDENTIALS } from '../messaging/messaging-helpers';
import { extraOccurrences, reportDrill } from '../support/drill';
import { GraphStub } from '../support/stubs/whatsapp-graph-stub';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { killProcess, spawnWorker } from '../support/worker-process';

const CONTACTS = 80;
const LINES = 10;
const KILLS = 2;
/**
 * The retake's wait for Graph's report (MESSAGE_RETAKE_GRACE_MS) past the send lease: long enough
 * for a fresh worker to boot and take the reports, including a report job the dead worker held
 * (BullMQ gives it back after the queue's 10 s lease and a 5 s stall check). 20 s was too short on
 * a loaded machine once (4 resends).
 */
const GRACE_MS = 60_000;
/** Graph's status webhooks follow an accepted send after this long (so that a kill always finds accepted sends not yet reported). */
const REPORT_DELAY_MS = 500;
const credentials = { ...CREDENTIALS, provider: 'CLOUD_API' as const, appSecret: 'drill-app-secret', verifyToken: 'drill-verify-token' };

describe('a worker killed mid-send (WhatsApp through the Graph adapter)', () => {
  let stub: GraphStub;
  let t: TestApp;
  let ws: Seeded;
  let worker: ChildProcess | null = null;
  /** The webhook player below runs while this is true (afterAll stops it should the test fail first). */
  let reporting = true;

  const startWorker = async (stubUrl: string) => {
    worker = await spawnWorker({
      WHATSAPP_GRAPH_BASE_URL: stubUrl,
      DISPATCH_TICK_MS: '100',
      REAPER_INTERVAL_MS: '500',
      REAPER_GRACE_SECONDS: '0',
      MESSAGE_RETAKE_GRACE_MS: String(GRACE_MS),
    });
  };

  beforeAll(async () => {
    stub = await GraphStub.start();
    t = await TestApp.create(); // real clock: the worker processes use the system clock
    await t.reset();
    ws = await t.seed({ concurrency: LINES, features: ['whatsapp'] });
    await credit(t, ws.workspaceId, 1_000_000);
  }, 300_000);
  afterAll(async () => {
    reporting = false;
    await killProcess(worker, 'SIGTERM');
    await t?.close();
    await stub?.close();
  });

  it('SIGKILL twice with sends in flight, then a fresh worker: every contact gets its message, none twice (Graph-accepted sends are adopted from their status webhooks)', async () => {
    await startWorker(stub.baseUrl);
    const k = bearer(ws.key);
    const sender = await t.http.post('/whatsapp/senders').set(k).send({ phoneNumber: '+14155550120', credentials });
    expect(sender.status).toBe(201);
    const template = await createTemplate(t, ws.key, { body: 'Hi {{1}}, news from {{2}}.', footer: null, bindings: [
      { placeholder: 1, source: 'CONTACT_FIELD', value: 'name' },
      { placeholder: 2, source: 'CONSTANT', value: 'Acme' },
    ] });
    await t.http.post(`/whatsapp/templates/${template.id}/submit`).set(k);
    await waitFor('the sender verified by the stub and the template approved', async () => {
      const [s, tp] = await Promise.all([t.http.get(`/whatsapp/senders/${sender.body.id}`).set(k), t.http.get(`/whatsapp/templates/${template.id}`).set(k)]);
      return s.body.status === 'CONNECTED' && tp.body.status === 'APPROVED';
    }, Boolean, 20_000);

    const campaign = await createCampaign(t, ws.key, {
      channel: 'WHATSAPP',
      whatsappOutreachTemplateId: template.id,
      timezone: 'UTC',
      dailyWindowStart: '00:00',
      dailyWindowEnd: '00:00',
      recipientHours: 'off',
      retryCount: 0,
    });
    const campaignId = campaign.id as string;
    const phones = Array.from({ length: CONTACTS }, (_, i) => `+1415777${String(i).padStart(4, '0')}`);
    const added = await t.http.post(`/campaigns/${campaignId}/contacts`).set(k).send(phones.map((phone, i) => ({ phone, name: `Contact ${i}` })));
    expect(added.status).toBe(201);

    const sends = () => stub.requests.filter((r) => r.method === 'POST' && /\/messages$/.test(r.path));
    const recipient = (body: unknown) => `+${(body as { to: string }).to.replace(/^\+/, '')}`;
    const messageRows = (): Promise<Array<{ id: string; address: string; status: string; send_started_at: Date | null; provider_message_id: string | null }>> =>
      t.dataSource.query(
        `SELECT m.id, m.address, m.status, m.send_started_at, m.provider_message_id FROM messages m
           JOIN campaign_contacts c ON m.idempotency_key LIKE 'leg-' || c.id || '-%'
          WHERE c.campaign_id = $1 AND m.direction = 'OUTBOUND'`,
        [campaignId],
      );

    // The provider's reports, played as Graph plays them: for every send the stub ACCEPTED (whether or
    // not the worker lived to hear the answer), a signed status webhook (delivered, read) carrying the
    // send's biz_opaque_callback_data, REPORT_DELAY_MS after the acceptance, all along the drill. A
    // contact holds its line until its message is reported (33.3).
    const acceptedAt = new Map<string, number>();
    const reported = new Set<string>();
    const report = async (sent: { wamid: string; opaque: string | null }) => {
      const raw = JSON.stringify(stub.statusWebhook(sent));
      const res = await t.http.post(`/webhooks/whatsapp/${sender.body.id}`).set('Content-Type', 'application/json').set('X-Hub-Signature-256', hubSignature(credentials.appSecret, raw)).send(raw);
      expect(res.status).toBe(200);
    };
    const reporter = (async () => {
      while (reporting) {
        for (const sent of [...stub.accepted]) {
          if (reported.has(sent.wamid)) continue;
          if (!acceptedAt.has(sent.wamid)) acceptedAt.set(sent.wamid, Date.now());
          if (Date.now() - acceptedAt.get(sent.wamid)! < REPORT_DELAY_MS) continue;
          reported.add(sent.wamid);
          await report(sent);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    reporter.catch(() => undefined); // awaited (and its failure raised) at the end; no unhandled rejection if the test fails first

    // Graph takes 300 ms per send: with 10 lines about 10 sends are always in flight.
    stub.latencyMs = 300;
    await startCampaign(t, ws, campaignId, { reservedConcurrency: LINES });
    let exposed = 0; // sends Graph accepted for a message still QUEUED when its worker died: the window of 33.14
    let workerStartedAt = new Date(Date.now() - 60_000);
    let sendsAtStart = 0;
    for (let kill = 1; kill <= KILLS; kill++) {
      const before = sends().length;
      await waitFor(`sends in flight (kill ${kill})`, async () => ({ total: sends().length, pending: stub.pending }), (s) => s.total >= before + 15 && s.pending >= 3, 60_000);
      await killProcess(worker, 'SIGKILL');
      worker = null;
      // What the dead worker left: messages QUEUED under its lease. Those the stub received were
      // accepted (Graph sends what it received, whether or not the caller heard the answer).
      // Only the dead worker's leases count (a row aged at an earlier kill and not yet retaken is not
      // its), and only sends the stub received from it.
      const received = new Set(sends().slice(sendsAtStart).map((r) => recipient(r.body)));
      const leased = (await messageRows()).filter((m) => m.status === 'QUEUED' && m.send_started_at !== null && new Date(m.send_started_at) >= workerStartedAt);
      expect(leased.length).toBeGreaterThan(0);
      const acceptedUnrecorded = leased.filter((m) => received.has(m.address)).length;
      process.stdout.write(`message drill kill ${kill}: ${leased.length} sends in flight, ${acceptedUnrecorded} of them already accepted by Graph\n`);
      exposed += acceptedUnrecorded;
      // Time travel for the dead worker's rows only: their send lease (SEND_LEASE_MS, 60 s) and the
      // attempts' deadline pass at once instead of after a minute of waiting (no worker is alive). The
      // retake's grace for Graph's report (GRACE_MS, 33.16) is NOT skipped: it passes in real time.
      await t.dataSource.query(`UPDATE messages SET send_started_at = send_started_at - interval '60 seconds' WHERE id = ANY($1)`, [leased.map((m) => m.id)]);
      await t.dataSource.query(
        `UPDATE campaign_contacts c SET attempt_deadline_at = attempt_deadline_at - interval '1 hour'
          WHERE c.campaign_id = $1 AND c.status = 'IN_PROGRESS'
            AND EXISTS (SELECT 1 FROM messages m WHERE m.id = ANY($2) AND m.idempotency_key LIKE 'leg-' || c.id || '-%')`,
        [campaignId, leased.map((m) => m.id)],
      );
      workerStartedAt = new Date();
      sendsAtStart = sends().length;
      await startWorker(stub.baseUrl);
    }
    expect(exposed).toBeGreaterThan(0); // the drill did hit the window it is about

    const probe = new EngineProbe(t);
    await waitFor('the campaign to complete', () => probe.campaignStatus(campaignId), (s) => s === 'COMPLETED', 150_000).finally(() => (reporting = false));
    await reporter;
    const rows = await messageRows();

    const contacts: Array<{ phone: string; status: string; message_outcome: string | null }> = await t.dataSource.query(
      `SELECT phone, status, message_outcome FROM campaign_contacts WHERE campaign_id = $1`,
      [campaignId],
    );
    // Done: reported delivered or read, or (the reaper's final look at a retaken send whose report it
    // did not wait for, 33.8) sent.
    expect(contacts.filter((c) => c.status !== 'COMPLETED' || !['delivered', 'read', 'sent'].includes(c.message_outcome ?? ''))).toEqual([]);
    // Counted at the stub: one send per contact, none twice.
    const perRecipient = sends().map((r) => recipient(r.body));
    expect(new Set(perRecipient)).toEqual(new Set(phones));
    const duplicated = extraOccurrences(perRecipient);
    if (duplicated > 0) {
      const twice = new Set(perRecipient.filter((p, i) => perRecipient.indexOf(p) !== i));
      process.stdout.write(`message drill: sent twice ${JSON.stringify(stub.accepted.filter((a) => twice.has(a.to)).map((a) => ({ ...a, reportedAfterMs: acceptedAt.get(a.wamid) })))}\n`);
    }
    // One message row per contact, one debit per message.
    const debits: Array<{ reference: string }> = await t.dataSource.query(
      `SELECT reference FROM ledger_entries WHERE workspace_id = $1 AND kind = 'debit' AND debit_kind = 'message'`,
      [ws.workspaceId],
    );
    expect(rows).toHaveLength(CONTACTS);
    expect(new Set(rows.map((m) => m.address))).toEqual(new Set(phones));
    expect(debits).toHaveLength(CONTACTS);
    expect(extraOccurrences(debits.map((d) => d.reference))).toBe(0);

    const delivered = contacts.filter((c) => c.status === 'COMPLETED').length;
    const count = reportDrill('worker-sigkill-mid-send', { accepted: CONTACTS, delivered, lost: CONTACTS - new Set(perRecipient).size, duplicated });
    // Decisions.md 33.16: the sends Graph had accepted for a message still QUEUED at a kill (`exposed`,
    // sent twice before 33.16) are adopted from their status webhooks; nothing is sent twice.
    expect(count).toEqual({ accepted: CONTACTS, delivered: CONTACTS, lost: 0, duplicated: 0 });
  }, 300_000);
});
