import { Module } from '@nestjs/common';
import { CallLog } from '@outreach/calls';
import { Outbox, PlatformModule, WORKER_CONFIG_DEFAULTS } from '@outreach/platform';
import { leadFinalJob, ResultsWorkerModule } from '@outreach/results';
import { Webhook } from 'standardwebhooks';
import { serviceMigrations } from '../support/service-modules';
import { bearer, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { WorkerApp } from '../support/worker-app';
import { pushLead, runningApiCampaign } from './results-helpers';

@Module({
  imports: [
    PlatformModule.forRoot({ role: 'worker', migrations: serviceMigrations(), configDefaults: WORKER_CONFIG_DEFAULTS }),
    ResultsWorkerModule,
  ],
})
class ResultsWorkerRoot {}

/** Polls (bounded) until `check` returns a value. */
async function eventually<T>(check: () => Promise<T | null | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('results worker: the lead-final job, through the outbox, to a signed webhook', () => {
  let t: TestApp;
  let worker: WorkerApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    t = await TestApp.create();
    worker = await WorkerApp.create({ root: ResultsWorkerRoot });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
    await receiver.close();
    await worker.close();
    await t.close();
  });

  it('the engine’s job (leadFinalJob) writes the result once and delivers it', async () => {
    await t.reset();
    const ws = await t.seed({ features: ['api_results'] });
    const campaign = await runningApiCampaign(t, ws.key, ws.workspaceId);
    const hook = await t.http.post('/result-webhooks').set(bearer(ws.key)).send({ url: receiver.url() });
    const lead = await pushLead(t, ws.key, campaign.id, { idempotencyKey: 'w1', phone: '+14155552675' });
    const calls = t.get(CallLog);
    const { callId } = await calls.start({
      workspaceId: ws.workspaceId,
      campaignId: campaign.id,
      contactId: lead.body.id,
      agentId: null,
      fromNumber: '+14155550100',
      toNumber: '+14155552675',
      attemptNumber: 1,
      kind: 'campaign',
    });
    await calls.finish(callId, {
      outcome: 'completed',
      providerDisposition: 'completed',
      providerCallId: 'sandbox-1',
      answeredAt: new Date(),
      endedAt: new Date(),
      durationMs: 42_000,
      transcript: 'Agent: hi',
      recordingUrl: null,
    });
    await t.dataSource.query(`UPDATE campaign_contacts SET status = 'COMPLETED', attempts = 1, last_outcome = 'completed' WHERE id = $1`, [
      lead.body.id,
    ]);
    // what the engine does in the transaction that makes the contact final — twice, as a relay may
    await t.get(Outbox).enqueue(leadFinalJob(lead.body.id, callId));
    await t.get(Outbox).enqueue(leadFinalJob(lead.body.id, callId));

    const delivered = await eventually(async () => receiver.received[0], 'the webhook');
    const payload = new Webhook(hook.body.secret).verify(delivered.body, {
      'webhook-id': String(delivered.headers['webhook-id']),
      'webhook-timestamp': String(delivered.headers['webhook-timestamp']),
      'webhook-signature': String(delivered.headers['webhook-signature']),
    }) as { id: string; data: { leadId: string; finalCall: { id: string; durationMs: number } } };
    expect(payload.data).toMatchObject({ leadId: lead.body.id, finalCall: { id: callId, durationMs: 42_000 } });
    const read = await t.http.get(`/v1/results/${payload.id}`).set(bearer(ws.key));
    expect(read.body).toEqual(payload);
    await eventually(async () => {
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM outbox WHERE dispatched_at IS NULL AND queue = 'results'`);
      return n === 0;
    }, 'the outbox to drain');
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM lead_results WHERE lead_id = $1`, [lead.body.id]);
    expect(n).toBe(1);
    expect(receiver.received).toHaveLength(1);
  });
});
