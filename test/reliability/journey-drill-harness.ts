// What the journey drills share (issue 13, decisions.md 37.16–37.17): a 200-lead CSV journey
// (start → call → WhatsApp → end, every port wired on, 20 lines, sandbox calls of 300 ms) run by
// real worker processes, and the count at its end, taken at the providers.
import Redis from 'ioredis';
import { attachNumber, createCampaign, credit, randomE164 } from '../campaigns/campaign-helpers';
import { EngineProbe, sandboxNumber, startCampaign, waitFor } from '../engine/engine-harness';
import { connectSender, createTemplate } from '../messaging/messaging-helpers';
import { createActiveAgent } from '../support/agent-fixtures';
import { extraOccurrences, reportDrill } from '../support/drill';
import { bearer, Seeded, TestApp } from '../support/test-app';

export const LEADS = 200;
export const LINES = 20;

/** The worker processes' environment: quick ticks and reaper, calls that stay in flight 300 ms. */
export const DRILL_WORKER_ENV = {
  DISPATCH_TICK_MS: '100',
  REAPER_INTERVAL_MS: '500',
  REAPER_GRACE_SECONDS: '0',
  SANDBOX_VOICE_LATENCY_MS: '300',
};

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

/** One drill's journey campaign; `sandboxRedis` is where the sandbox voice provider keeps its call records. */
export class JourneyDrill {
  campaignId = '';
  private callerId = '';
  private phones: string[] = [];

  private constructor(
    private readonly t: TestApp,
    private readonly ws: Seeded,
    private readonly sandboxRedis: Redis,
  ) {}

  static async seed(t: TestApp, sandboxRedis: Redis): Promise<JourneyDrill> {
    await t.reset();
    const ws = await t.seed({ concurrency: LINES, features: ['workflows', 'whatsapp'] });
    await credit(t, ws.workspaceId, 1_000_000);
    return new JourneyDrill(t, ws, sandboxRedis);
  }

  /** Sender, template, agent, active workflow, campaign with its number and 200 contacts; then the start (a worker must run). */
  async start(): Promise<void> {
    const { t, ws } = this;
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
    this.campaignId = campaign.id as string;
    this.callerId = randomE164();
    await attachNumber(t, ws.key, ws.workspaceId, this.campaignId, this.callerId);
    // Last digits 2–9: numbers the sandbox WhatsApp accepts at once (0 is undeliverable, 1 refused for now).
    this.phones = Array.from({ length: LEADS }, (_, i) => sandboxNumber(i, 2 + (i % 8)));
    expect((await t.http.post(`/campaigns/${this.campaignId}/contacts`).set(k).send(this.phones.map((phone, i) => ({ phone, name: `Lead ${i}` })))).status).toBe(201);
    await startCampaign(t, ws, this.campaignId, { reservedConcurrency: LINES });
  }

  async runsDone(): Promise<number> {
    return (await this.t.dataSource.query(`SELECT count(*)::int AS n FROM workflow_runs WHERE campaign_id = $1 AND status = 'DONE'`, [this.campaignId]))[0].n as number;
  }

  async runsNotFinal(): Promise<number> {
    return (await this.t.dataSource.query(`SELECT count(*)::int AS n FROM workflow_runs WHERE campaign_id = $1 AND status NOT IN ('DONE', 'FAILED', 'CANCELED')`, [this.campaignId]))[0].n as number;
  }

  /**
   * Waits for the campaign to complete, then asserts every run DONE with its four steps once, in
   * order, every contact COMPLETED, and — counted at the providers — one call, one WhatsApp message
   * and one message debit per lead. Prints and returns the drill's count line.
   */
  async verify(drill: string): Promise<void> {
    const { t, ws, campaignId, phones } = this;
    const probe = new EngineProbe(t);
    try {
      await waitFor('the campaign to complete', () => probe.campaignStatus(campaignId), (s) => s === 'COMPLETED', 180_000);
    } catch (error) {
      throw new Error(`${(error as Error).message}\nwhat is not final: ${JSON.stringify(await this.stuck())}`);
    }

    const runs: Array<{ id: string; status: string; steps: string[] }> = await t.dataSource.query(
      `SELECT r.id, r.status, array(SELECT s.node_id FROM workflow_steps s WHERE s.run_id = r.id ORDER BY s.visit) AS steps
         FROM workflow_runs r WHERE r.campaign_id = $1`,
      [campaignId],
    );
    expect(runs).toHaveLength(LEADS);
    expect(runs.filter((r) => r.status !== 'DONE' || JSON.stringify(r.steps) !== JSON.stringify(['start', 'call', 'wa', 'done']))).toEqual([]);
    const contacts: Array<{ status: string }> = await t.dataSource.query(`SELECT status FROM campaign_contacts WHERE campaign_id = $1`, [campaignId]);
    expect(contacts.filter((c) => c.status !== 'COMPLETED')).toEqual([]);

    const called = await this.providerCalls();
    const messages: Array<{ address: string }> = await t.dataSource.query(`SELECT address FROM messages WHERE direction = 'OUTBOUND' AND idempotency_key LIKE 'wf-%'`);
    const debits: Array<{ reference: string }> = await t.dataSource.query(
      `SELECT reference FROM ledger_entries WHERE workspace_id = $1 AND kind = 'debit' AND debit_kind = 'message'`,
      [ws.workspaceId],
    );
    expect(new Set(called)).toEqual(new Set(phones));
    expect(new Set(messages.map((m) => m.address))).toEqual(new Set(phones));
    expect(debits).toHaveLength(LEADS);
    const duplicated = extraOccurrences(called) + extraOccurrences(messages.map((m) => m.address)) + extraOccurrences(debits.map((d) => d.reference));
    const count = reportDrill(drill, {
      accepted: LEADS,
      delivered: runs.filter((r) => r.status === 'DONE').length,
      lost: LEADS - new Set(called).size + (LEADS - new Set(messages.map((m) => m.address)).size),
      duplicated,
    });
    expect(count).toEqual({ accepted: LEADS, delivered: LEADS, lost: 0, duplicated: 0 });
  }

  /**
   * The runs and contacts that kept the campaign from completing, grouped by where they stand (run
   * status, node, its last step's status; the contact's status and leg; its message's status): what
   * a timed-out drill prints, so a failure in CI says where the work stopped.
   */
  private async stuck(): Promise<unknown> {
    const q = (sql: string) => this.t.dataSource.query(sql, [this.campaignId]);
    return {
      runs: await q(
        `SELECT r.status, r.node_id, s.status AS step_status, s.error, count(*)::int AS n
           FROM workflow_runs r LEFT JOIN workflow_steps s ON s.run_id = r.id AND s.visit = r.visit
          WHERE r.campaign_id = $1 AND r.status <> 'DONE'
          GROUP BY 1, 2, 3, 4`,
      ),
      contacts: await q(
        `SELECT c.status, c.leg, c.current_call_id IS NOT NULL AS has_call, c.attempt_deadline_at < now() AS past_deadline, count(*)::int AS n
           FROM campaign_contacts c WHERE c.campaign_id = $1 AND c.status <> 'COMPLETED'
          GROUP BY 1, 2, 3, 4`,
      ),
      messages: await q(
        `SELECT m.status, m.send_started_at IS NOT NULL AS sending, count(*)::int AS n
           FROM messages m JOIN workflow_runs r ON m.idempotency_key LIKE 'wf-' || r.id || '-%'
          WHERE r.campaign_id = $1 AND r.status <> 'DONE'
          GROUP BY 1, 2`,
      ),
    };
  }

  /** Calls the sandbox provider accepted from this campaign's caller id (its own records, kept across test files), by number called. */
  private async providerCalls(): Promise<string[]> {
    const called: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await this.sandboxRedis.scan(cursor, 'MATCH', `${process.env.REDIS_PREFIX}:sandbox-voice:*`, 'COUNT', 1000);
      cursor = next;
      if (!keys.length) continue;
      for (const raw of await this.sandboxRedis.mget(...keys)) {
        const record = raw ? (JSON.parse(raw) as { from: string; to: string }) : null;
        if (record?.from === this.callerId) called.push(record.to);
      }
    } while (cursor !== '0');
    return called;
  }
}
