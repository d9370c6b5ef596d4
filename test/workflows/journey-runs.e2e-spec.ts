// Issue 13 items 4–5: durable journey runs end to end (decisions.md 37.12, 37.13) — the README's
// example journey run by the real worker (dispatcher, attempts, settlements, step jobs, the sweep,
// messaging's SendMessage and the sandboxes) on the real Postgres and Redis, with a FixedClock the
// test moves past the two-day wait instead of sleeping.
process.env.DISPATCH_TICK_MS = '100';
process.env.REAPER_INTERVAL_MS = '3600000'; // the test runs the sweep itself

import { Clock, FixedClock } from '@outreach/platform';
import { exampleJourney, JourneyRuns } from '@outreach/workflows';
import { attachNumber, createCampaign, credit, expectError } from '../campaigns/campaign-helpers';
import { createActiveAgent } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { connectSender, createTemplate } from '../messaging/messaging-helpers';
import { pushLead } from '../results/results-helpers';
import { CountingVoiceProvider, EngineProbe, sandboxFor, sandboxNumber, startCampaign, startWorker, waitFor } from '../engine/engine-harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely, field by field
type Loose = Record<string, any>;

const MONDAY_10_UTC = new Date('2026-11-23T10:00:00Z');
const TWO_DAYS_MS = 172_800_000;

/** The sandbox's call outcome by the number's last digit (DESIGN §7): 4 transferred, 5–9 completed are "interested". */
const interested = (digit: number) => digit >= 4;

/** The steps the example journey takes for a lead whose number ends in `digit`, and the port each leaves through. */
function expectedPath(digit: number): Array<{ nodeId: string; port: string | null }> {
  const callPort = ['no_answer', 'no_answer', 'voicemail', 'failed', 'transferred'][digit] ?? 'answered';
  const head = [
    { nodeId: 'start', port: 'next' },
    { nodeId: 'call1', port: callPort },
  ];
  if (interested(digit)) return [...head, { nodeId: 'interested', port: 'interested' }, { nodeId: 'wa', port: 'sent' }, { nodeId: 'won', port: null }];
  return [...head, { nodeId: 'interested', port: 'else' }, { nodeId: 'wait2d', port: 'next' }, { nodeId: 'call2', port: callPort }, { nodeId: 'lost', port: null }];
}

describe('journey runs (the example journey through the real worker)', () => {
  const clock = new FixedClock(MONDAY_10_UTC);
  const voice = new CountingVoiceProvider(sandboxFor(clock));
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;
  let probe: EngineProbe;
  let agentId: string;
  let templateId: string;
  let workflow: Loose;

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock) });
    worker = await startWorker({ clock, voice });
    probe = new EngineProbe(t);
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });
  beforeEach(async () => {
    clock.set(MONDAY_10_UTC);
    voice.reset();
    await t.reset();
    ws = await t.seed({ features: ['workflows', 'whatsapp', 'api_results'] });
    await credit(t, ws.workspaceId, 1_000_000);
    const k = bearer(ws.key);
    const sender = await connectSender(t, ws.key, '+14155550194');
    await waitFor('the sender to connect', async () => (await t.http.get(`/whatsapp/senders/${sender.id}`).set(k)).body.status, (s) => s === 'CONNECTED');
    const template = await createTemplate(t, ws.key, { body: 'Hi {{1}}, here is the offer.', bindings: [{ placeholder: 1, source: 'CONTACT_FIELD', value: 'name' }] });
    templateId = template.id as string;
    await t.http.post(`/whatsapp/templates/${templateId}/submit`).set(k);
    await waitFor('the template to be approved', async () => (await t.http.get(`/whatsapp/templates/${templateId}`).set(k)).body.status, (s) => s === 'APPROVED');
    agentId = (await createActiveAgent(t, ws.key, {})).id;
    const created = await t.http.post('/workflows').set(k).send({ name: 'README journey', definition: exampleJourney(agentId, templateId) });
    expect(created.status).toBe(201);
    const activated = await t.http.post(`/workflows/${created.body.id}/activate`).set(k).send({ revision: created.body.revision });
    expect(activated.status).toBe(200);
    workflow = activated.body;
  });

  async function journeyCampaign(source: 'CSV' | 'API'): Promise<string> {
    const campaign = await createCampaign(t, ws.key, {
      channel: 'CUSTOM',
      source,
      workflowId: workflow.id,
      timezone: 'UTC',
      dailyWindowStart: '00:00',
      dailyWindowEnd: '00:00',
      recipientHours: 'off',
    });
    await attachNumber(t, ws.key, ws.workspaceId, campaign.id);
    return campaign.id as string;
  }

  const runStatuses = async (campaignId: string): Promise<Record<string, number>> => {
    const rows: Array<{ status: string; n: number }> = await t.dataSource.query(`SELECT status, count(*)::int AS n FROM workflow_runs WHERE campaign_id = $1 GROUP BY status`, [campaignId]);
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  };

  /** Every run DONE or WAITING with nothing in flight: the first leg of the journey is over. */
  const restingAt = async (campaignId: string, expected: Record<string, number>) =>
    waitFor('the runs to rest', () => runStatuses(campaignId), (s) => JSON.stringify(s) === JSON.stringify(expected), 60_000);

  it('50 CSV leads run the README journey to DONE: interested leads get the WhatsApp offer, the others a second call two days later', async () => {
    const campaignId = await journeyCampaign('CSV');
    const contacts = Array.from({ length: 50 }, (_, i) => ({ phone: sandboxNumber(i, i % 10), name: `Lead ${i}` }));
    expect((await t.http.post(`/campaigns/${campaignId}/contacts`).set(bearer(ws.key)).send(contacts)).status).toBe(201);
    await startCampaign(t, ws, campaignId, { reservedConcurrency: 10 });

    // Digits 4–9 (30 leads) end at `won`; digits 0–3 (20 leads) wait two days.
    await restingAt(campaignId, { DONE: 30, WAITING: 20 });
    expect(await probe.campaignStatus(campaignId)).toBe('RUNNING'); // runs still wait: the campaign is not complete
    const waiting: Array<{ due_at: Date }> = await t.dataSource.query(`SELECT due_at FROM workflow_runs WHERE campaign_id = $1 AND status = 'WAITING'`, [campaignId]);
    for (const w of waiting) expect(new Date(w.due_at).getTime()).toBe(MONDAY_10_UTC.getTime() + TWO_DAYS_MS);

    // Nothing happens before the due time: the sweep finds nothing due.
    expect(await worker.get(JourneyRuns).sweep()).toBe(0);
    // Two days later (the clock, not a sleep): the sweep promotes the waits' delayed jobs.
    clock.set(new Date(MONDAY_10_UTC.getTime() + TWO_DAYS_MS + 1000));
    expect(await worker.get(JourneyRuns).sweep()).toBe(20);
    await restingAt(campaignId, { DONE: 50 });
    await waitFor('the campaign to complete', () => probe.campaignStatus(campaignId), (s) => s === 'COMPLETED');

    // Per lead: the path the last digit decides, each step once; calls counted at the provider.
    const leads: Array<{ id: string; phone: string; status: string }> = await t.dataSource.query(`SELECT id, phone, status FROM campaign_contacts WHERE campaign_id = $1 ORDER BY seq`, [campaignId]);
    expect(leads).toHaveLength(50);
    const k = bearer(ws.key);
    for (const lead of leads) {
      const digit = Number(lead.phone.slice(-1));
      const res = await t.http.get(`/campaigns/${campaignId}/leads/${lead.id}/journey`).set(k);
      expect(res.status).toBe(200);
      expect({ phone: lead.phone, status: res.body.status, endLabel: res.body.endLabel, steps: res.body.steps.map((s: Loose) => ({ nodeId: s.nodeId, port: s.port })) }).toEqual({
        phone: lead.phone,
        status: 'DONE',
        endLabel: interested(digit) ? 'offer_sent' : 'called_twice',
        steps: expectedPath(digit),
      });
      expect(res.body.steps.every((s: Loose) => s.status === 'DONE')).toBe(true);
      expect(lead.status).toBe('COMPLETED');
      expect(voice.placed.get(lead.phone)).toBe(interested(digit) ? 1 : 2);
      const call = res.body.steps.find((s: Loose) => s.nodeId === 'call1').call;
      expect(call).toMatchObject({ status: digit === 3 ? 'FAILED' : 'ENDED', outcome: ['no_answer', 'busy', 'voicemail', 'carrier_failure', 'transferred'][digit] ?? 'completed' });
    }
    // One WhatsApp message per interested lead, under the run's key (wf-<runId>-<visit>).
    const [{ n: messages }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM messages WHERE direction = 'OUTBOUND' AND idempotency_key LIKE 'wf-%'`);
    expect(messages).toBe(30);
    // Each call was placed with the step's agent.
    const agents: Array<{ agent_id: string; n: number }> = await t.dataSource.query(`SELECT agent_id, count(*)::int AS n FROM calls WHERE campaign_id = $1 GROUP BY agent_id`, [campaignId]);
    expect(agents).toEqual([{ agent_id: agentId, n: 70 }]);

    // The runs API: offset/limit with X-Total-Count, the status filter, one run with its steps.
    const page = await t.http.get(`/workflows/${workflow.id}/runs?offset=10&limit=15`).set(k);
    expect(page.status).toBe(200);
    expect(page.headers['x-total-count']).toBe('50');
    expect(page.body).toHaveLength(15);
    const done = await t.http.get(`/workflows/${workflow.id}/runs?status=DONE&limit=1`).set(k);
    expect(done.headers['x-total-count']).toBe('50');
    const none = await t.http.get(`/workflows/${workflow.id}/runs?status=WAITING`).set(k);
    expect({ status: none.status, total: none.headers['x-total-count'], body: none.body }).toEqual({ status: 200, total: '0', body: [] });
    const one = await t.http.get(`/workflows/${workflow.id}/runs/${page.body[0].runId}`).set(k);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ runId: page.body[0].runId, workflowId: workflow.id, revision: workflow.revision, campaignId, status: 'DONE' });
    expect(one.body.steps.length).toBeGreaterThanOrEqual(5);

    // A step job run again (a re-added copy, a stalled job) changes nothing: every visit of a finished run is stale.
    const stepsBefore = await t.dataSource.query(`SELECT count(*)::int AS n FROM workflow_steps`);
    for (const run of page.body.slice(0, 5)) {
      for (let visit = 1; visit <= run.visit + 1; visit++) expect(await worker.get(JourneyRuns).advance(run.runId, visit)).toBe('stale');
    }
    expect(await t.dataSource.query(`SELECT count(*)::int AS n FROM workflow_steps`)).toEqual(stepsBefore);
    expect(await t.dataSource.query(`SELECT count(*)::int AS n FROM messages WHERE direction = 'OUTBOUND'`)).toEqual([{ n: 30 }]);
  }, 120_000);

  it('an API lead runs the journey as it arrives; its result carries the `journey` object exactly as the contract shows', async () => {
    const campaignId = await journeyCampaign('API');
    await startCampaign(t, ws, campaignId);
    const lead = await pushLead(t, ws.key, campaignId, { idempotencyKey: 'lead-7', phone: sandboxNumber(3, 7), name: 'Ada' });
    expect(lead.status).toBeLessThan(300);
    const leadId = lead.body.id as string;
    const resultId = async () => (await t.dataSource.query(`SELECT id FROM lead_results WHERE lead_id = $1`, [leadId]))[0]?.id as string | undefined;
    const id = await waitFor('the lead result', resultId, (r) => r !== undefined, 30_000);
    const res = await t.http.get(`/v1/results/${id}`).set(bearer(ws.key));
    expect(res.status).toBe(200);
    const envelope = res.body as Loose;
    const journey = envelope!.data.journey;
    expect(Object.keys(journey)).toEqual(['runId', 'workflowId', 'status', 'endLabel', 'failureReason', 'startedAt', 'endedAt', 'tags', 'steps']);
    expect(journey).toMatchObject({ workflowId: workflow.id, status: 'DONE', endLabel: 'offer_sent', failureReason: null, tags: [] });
    expect(journey.steps.map((s: Loose) => [s.nodeId, s.type, s.actionKind, s.status, s.port])).toEqual([
      ['start', 'start', 'none', 'DONE', 'next'],
      ['call1', 'call', 'call', 'DONE', 'answered'],
      ['interested', 'branch', 'none', 'DONE', 'interested'],
      ['wa', 'whatsapp', 'whatsapp', 'DONE', 'sent'],
      ['won', 'end', 'none', 'DONE', null],
    ]);
    const call = journey.steps[1].call;
    expect(Object.keys(call)).toEqual(['id', 'status', 'outcome', 'providerDisposition', 'answeredAt', 'endedAt', 'durationMs', 'extraction']);
    expect(call).toMatchObject({ status: 'ENDED', outcome: 'completed' });
    expect(Object.keys(journey.steps[0])).toEqual(['nodeId', 'label', 'type', 'actionKind', 'status', 'error', 'startedAt', 'endedAt', 'call', 'port']);
    expect(envelope!.data).toMatchObject({ status: 'completed', finalCall: { id: call.id } });
    // The lead's journey by the route: the same run.
    const byLead = await t.http.get(`/campaigns/${campaignId}/leads/${leadId}/journey`).set(bearer(ws.key));
    expect(byLead.status).toBe(200);
    expect(byLead.body.runId).toBe(journey.runId);
  }, 60_000);

  it('404 workflow_run_not_found, 400 campaign_has_no_journey, 404 for unknown or foreign workflows and campaigns', async () => {
    const k = bearer(ws.key);
    const campaignId = await journeyCampaign('CSV');
    const unknown = '7a0e6f43-4f43-4a8e-9a55-3c1f0f1b0a01';
    expectError(await t.http.get(`/campaigns/${campaignId}/leads/${unknown}/journey`).set(k), 404, 'workflow_run_not_found');
    expectError(await t.http.get(`/workflows/${workflow.id}/runs/${unknown}`).set(k), 404, 'workflow_run_not_found');
    expectError(await t.http.get(`/workflows/${workflow.id}/runs/not-a-uuid`).set(k), 404, 'workflow_run_not_found');
    expectError(await t.http.get(`/workflows/${unknown}/runs`).set(k), 404, 'workflow_not_found');
    const voiceCampaign = await createCampaign(t, ws.key, { agentId });
    expectError(await t.http.get(`/campaigns/${voiceCampaign.id}/leads/${unknown}/journey`).set(k), 400, 'campaign_has_no_journey');
    expectError(await t.http.get(`/campaigns/${unknown}/leads/${unknown}/journey`).set(k), 404, 'campaign_not_found');
    const other = await t.seed({ features: ['workflows'] });
    expectError(await t.http.get(`/campaigns/${campaignId}/leads/${unknown}/journey`).set(bearer(other.key)), 404, 'campaign_not_found');
    expectError(await t.http.get(`/workflows/${workflow.id}/runs`).set(bearer(other.key)), 404, 'workflow_not_found');
  });
});
