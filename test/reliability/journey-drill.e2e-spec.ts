// Issue 13's SIGKILL drill for journey runs (decisions.md 37.16): a 200-lead journey (call → WhatsApp
// → end) run by a real worker process that is killed with SIGKILL twice while calls and step jobs are
// in flight, each time replaced by a fresh process. Counted at the providers: every lead is called
// once (the sandbox provider's own call records in Redis) and messaged once (one message row and one
// debit per lead); every run ends DONE with each step once, and the campaign completes.
import { ChildProcess } from 'node:child_process';
import Redis from 'ioredis';
import { attachNumber, createCampaign, credit, randomE164 } from '../campaigns/campaign-helpers';
import { EngineProbe, sandboxNumber, startCampaign, waitFor } from '../engine/engine-harness';
import { connectSender, createTemplate } from '../messaging/messaging-helpers';
import { createActiveAgent } from '../support/agent-fixtures';
import { extraOccurrences, reportDrill } from '../support/drill';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { killProcess, spawnWorker } from '../support/worker-process';

const LEADS = 200;
const LINES = 20;
const KILLS = 2;

/** start → call → WhatsApp → end, every port wired to the next node (no reply window to wait out). */
function drillJourney(agentId: string, templateId: string) {
  return {
    nodes: [
      { id: 'start', kind: 'start', config: {} },
      { id: 'call', kind: 'call', config: { agentId } },
      { id: 'wa', kind: 'whatsapp', config: { templateId } },
      { id: 'done', kind: 'end', label: 'drilled', config: {} },
    ],
    edges: [
      { from: 'start', port: 'next', to: 'call' },
      ...['answered', 'no_answer', 'voicemail', 'failed', 'transferred'].map((port) => ({ from: 'call', port, to: 'wa' })),
      ...['sent', 'failed', 'replied'].map((port) => ({ from: 'wa', port, to: 'done' })),
    ],
  };
}

describe('journey runs under a worker killed mid-run', () => {
  let t: TestApp;
  let ws: Seeded;
  let worker: ChildProcess | null = null;
  let redis: Redis;

  const startWorker = async () => {
    worker = await spawnWorker({
      DISPATCH_TICK_MS: '100',
      REAPER_INTERVAL_MS: '500',
      REAPER_GRACE_SECONDS: '0',
      SANDBOX_VOICE_LATENCY_MS: '300',
    });
  };

  beforeAll(async () => {
    t = await TestApp.create(); // real clock: the worker processes use the system clock
    await t.reset();
    ws = await t.seed({ concurrency: LINES, features: ['workflows', 'whatsapp'] });
    await credit(t, ws.workspaceId, 1_000_000);
    redis = new Redis(process.env.REDIS_URL!);
  }, 300_000);
  afterAll(async () => {
    await killProcess(worker, 'SIGTERM');
    redis?.disconnect();
    await t?.close();
  });

  /** Calls the sandbox provider accepted from `callerId` (its own records in Redis, kept across test files), by number called. */
  async function providerCalls(callerId: string): Promise<string[]> {
    const called: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${process.env.REDIS_PREFIX}:sandbox-voice:*`, 'COUNT', 1000);
      cursor = next;
      if (!keys.length) continue;
      for (const raw of await redis.mget(...keys)) {
        const record = raw ? (JSON.parse(raw) as { from: string; to: string }) : null;
        if (record?.from === callerId) called.push(record.to);
      }
    } while (cursor !== '0');
    return called;
  }

  it('SIGKILL twice with calls and steps in flight, then a fresh worker: every run DONE, every lead called once and messaged once', async () => {
    await startWorker();
    const k = bearer(ws.key);
    const sender = await connectSender(t, ws.key, '+14155550194');
    const template = await createTemplate(t, ws.key, { body: 'Hi {{1}}, here is the offer.', bindings: [{ placeholder: 1, source: 'CONTACT_FIELD', value: 'name' }] });
    await t.http.post(`/whatsapp/templates/${template.id}/submit`).set(k);
    await waitFor('the sender verified and the template approved', async () => {
      const [s, tp] = await Promise.all([t.http.get(`/whatsapp/senders/${sender.id}`).set(k), t.http.get(`/whatsapp/templates/${template.id}`).set(k)]);
      return s.body.status === 'CONNECTED' && tp.body.status === 'APPROVED';
    }, Boolean, 30_000);
    const agentId = (await createActiveAgent(t, ws.key, {})).id;
    const created = await t.http.post('/workflows').set(k).send({ name: 'drill journey', definition: drillJourney(agentId, template.id as string) });
    expect(created.status).toBe(201);
    expect((await t.http.post(`/workflows/${created.body.id}/activate`).set(k).send({ revision: created.body.revision })).status).toBe(200);

    const campaign = await createCampaign(t, ws.key, { channel: 'CUSTOM', source: 'CSV', workflowId: created.body.id, timezone: 'UTC', dailyWindowStart: '00:00', dailyWindowEnd: '00:00', recipientHours: 'off' });
    const campaignId = campaign.id as string;
    const callerId = randomE164();
    await attachNumber(t, ws.key, ws.workspaceId, campaignId, callerId);
    // Last digits 2–9: numbers the sandbox WhatsApp accepts at once (0 is undeliverable, 1 refused for now).
    const phones = Array.from({ length: LEADS }, (_, i) => sandboxNumber(i, 2 + (i % 8)));
    expect((await t.http.post(`/campaigns/${campaignId}/contacts`).set(k).send(phones.map((phone, i) => ({ phone, name: `Lead ${i}` })))).status).toBe(201);
    await startCampaign(t, ws, campaignId, { reservedConcurrency: LINES });

    const runsDone = async () => (await t.dataSource.query(`SELECT count(*)::int AS n FROM workflow_runs WHERE campaign_id = $1 AND status = 'DONE'`, [campaignId]))[0].n as number;
    for (let kill = 1; kill <= KILLS; kill++) {
      // Kill while the journey is under way: calls on the lines, step jobs queued.
      const target = Math.round((LEADS * kill) / (KILLS + 2));
      await waitFor(`${target} runs done (kill ${kill})`, runsDone, (n) => n >= target, 120_000);
      await killProcess(worker, 'SIGKILL');
      worker = null;
      const inFlight = await t.dataSource.query(`SELECT count(*)::int AS n FROM workflow_runs WHERE campaign_id = $1 AND status NOT IN ('DONE', 'FAILED', 'CANCELED')`, [campaignId]);
      process.stdout.write(`journey drill kill ${kill}: ${inFlight[0].n} runs not final\n`);
      expect(inFlight[0].n).toBeGreaterThan(0); // the kill did find work in flight
      await startWorker();
    }

    const probe = new EngineProbe(t);
    await waitFor('the campaign to complete', () => probe.campaignStatus(campaignId), (s) => s === 'COMPLETED', 180_000);

    // Every run DONE, each of its four steps once, in order.
    const runs: Array<{ id: string; status: string; steps: string[] }> = await t.dataSource.query(
      `SELECT r.id, r.status, array(SELECT s.node_id FROM workflow_steps s WHERE s.run_id = r.id ORDER BY s.visit) AS steps
         FROM workflow_runs r WHERE r.campaign_id = $1`,
      [campaignId],
    );
    expect(runs).toHaveLength(LEADS);
    expect(runs.filter((r) => r.status !== 'DONE' || JSON.stringify(r.steps) !== JSON.stringify(['start', 'call', 'wa', 'done']))).toEqual([]);
    const contacts: Array<{ status: string }> = await t.dataSource.query(`SELECT status FROM campaign_contacts WHERE campaign_id = $1`, [campaignId]);
    expect(contacts.filter((c) => c.status !== 'COMPLETED')).toEqual([]);

    // Counted at the providers: one accepted call per lead, one message (and one debit) per lead.
    const called = await providerCalls(callerId);
    const messages: Array<{ address: string }> = await t.dataSource.query(`SELECT address FROM messages WHERE direction = 'OUTBOUND' AND idempotency_key LIKE 'wf-%'`);
    const debits: Array<{ reference: string }> = await t.dataSource.query(
      `SELECT reference FROM ledger_entries WHERE workspace_id = $1 AND kind = 'debit' AND debit_kind = 'message'`,
      [ws.workspaceId],
    );
    expect(new Set(called)).toEqual(new Set(phones));
    expect(new Set(messages.map((m) => m.address))).toEqual(new Set(phones));
    expect(debits).toHaveLength(LEADS);
    const duplicated = extraOccurrences(called) + extraOccurrences(messages.map((m) => m.address)) + extraOccurrences(debits.map((d) => d.reference));
    const count = reportDrill('worker-sigkill-mid-journey', {
      accepted: LEADS,
      delivered: runs.filter((r) => r.status === 'DONE').length,
      lost: LEADS - new Set(called).size + (LEADS - new Set(messages.map((m) => m.address)).size),
      duplicated,
    });
    expect(count).toEqual({ accepted: LEADS, delivered: LEADS, lost: 0, duplicated: 0 });
  }, 420_000);
});
