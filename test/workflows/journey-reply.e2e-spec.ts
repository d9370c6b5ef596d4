// Issue 13 (decisions.md 37.21): a reply to a message step's send ends its reply window at once —
// the run leaves through `replied` without the clock reaching the window's end.
process.env.DISPATCH_TICK_MS = '100';
process.env.REAPER_INTERVAL_MS = '3600000';

import { Clock, FixedClock } from '@outreach/platform';
import { MessageEvents } from '@outreach/messaging';
import { attachNumber, createCampaign, credit } from '../campaigns/campaign-helpers';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { connectSender, createTemplate } from '../messaging/messaging-helpers';
import { CountingVoiceProvider, sandboxFor, sandboxNumber, startCampaign, startWorker, waitFor } from '../engine/engine-harness';

const MONDAY_10_UTC = new Date('2026-11-23T10:00:00Z');

describe('a reply ends a message step early', () => {
  const clock = new FixedClock(MONDAY_10_UTC);
  const voice = new CountingVoiceProvider(sandboxFor(clock));
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock) });
    worker = await startWorker({ clock, voice });
    ws = await t.seed({ features: ['workflows', 'whatsapp'] });
    await credit(t, ws.workspaceId, 1_000_000);
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });

  it('the run waiting out replyWithinSeconds leaves through replied when the reply arrives', async () => {
    const k = bearer(ws.key);
    const sender = await connectSender(t, ws.key, '+14155550194');
    await waitFor('the sender to connect', async () => (await t.http.get(`/whatsapp/senders/${sender.id}`).set(k)).body.status, (s) => s === 'CONNECTED');
    const template = await createTemplate(t, ws.key, { body: 'Hi {{1}}.', bindings: [{ placeholder: 1, source: 'CONTACT_FIELD', value: 'name' }] });
    await t.http.post(`/whatsapp/templates/${template.id}/submit`).set(k);
    await waitFor('the template to be approved', async () => (await t.http.get(`/whatsapp/templates/${template.id}`).set(k)).body.status, (s) => s === 'APPROVED');
    const definition = {
      nodes: [
        { id: 'start', kind: 'start', config: {} },
        { id: 'wa', kind: 'whatsapp', label: 'Offer', config: { templateId: template.id, replyWithinSeconds: 86_400 } },
        { id: 'endSent', kind: 'end', label: 'no_reply', config: {} },
        { id: 'endReplied', kind: 'end', label: 'replied', config: {} },
      ],
      edges: [
        { from: 'start', port: 'next', to: 'wa' },
        { from: 'wa', port: 'sent', to: 'endSent' },
        { from: 'wa', port: 'failed', to: 'endSent' },
        { from: 'wa', port: 'replied', to: 'endReplied' },
      ],
    };
    const created = await t.http.post('/workflows').set(k).send({ name: 'Reply journey', definition });
    expect(created.status).toBe(201);
    expect((await t.http.post(`/workflows/${created.body.id}/activate`).set(k).send({ revision: created.body.revision })).status).toBe(200);
    const campaign = await createCampaign(t, ws.key, { channel: 'CUSTOM', source: 'CSV', workflowId: created.body.id, timezone: 'UTC', dailyWindowStart: '00:00', dailyWindowEnd: '00:00', recipientHours: 'off' });
    const campaignId = campaign.id as string;
    await attachNumber(t, ws.key, ws.workspaceId, campaignId);
    expect((await t.http.post(`/campaigns/${campaignId}/contacts`).set(k).send([{ phone: sandboxNumber(1, 7), name: 'Ada' }])).status).toBe(201);
    await startCampaign(t, ws, campaignId, { reservedConcurrency: 1 });

    const run = await waitFor(
      'the run to wait for a reply',
      async () => (await t.dataSource.query(`SELECT id, status, visit FROM workflow_runs WHERE campaign_id = $1`, [campaignId]))[0] as { id: string; status: string; visit: number } | undefined,
      (r) => r?.status === 'WAITING',
    );
    const [message] = await t.dataSource.query(`SELECT id, provider, provider_message_id FROM messages WHERE idempotency_key = $1`, [`wf-${run!.id}-${run!.visit - 1}`]);
    expect(message).toBeDefined();

    // The reply, as messaging's intake delivers it (the clock does not move: the window is still open).
    await worker.get(MessageEvents).deliver({
      channel: 'WHATSAPP',
      type: 'replied',
      provider: message.provider,
      eventId: 'wamid.reply-1',
      messageId: message.id,
      providerMessageId: message.provider_message_id,
      at: clock.now(),
      text: 'Yes please',
    });
    const done = await waitFor(
      'the run to end',
      async () => (await t.dataSource.query(`SELECT status, end_label FROM workflow_runs WHERE id = $1`, [run!.id]))[0] as { status: string; end_label: string },
      (r) => r.status === 'DONE',
    );
    expect(done.end_label).toBe('replied');
    const steps: Array<{ node_id: string; port: string }> = await t.dataSource.query(`SELECT node_id, port FROM workflow_steps WHERE run_id = $1 ORDER BY visit`, [run!.id]);
    expect(steps.map((s) => [s.node_id, s.port])).toEqual([['start', 'next'], ['wa', 'replied'], ['endReplied', null]]);
    // A second delivery of the same reply changes nothing.
    await worker.get(MessageEvents).deliver({ channel: 'WHATSAPP', type: 'replied', provider: message.provider, eventId: 'wamid.reply-1', messageId: message.id, providerMessageId: message.provider_message_id, at: clock.now(), text: 'Yes please' });
    expect((await t.dataSource.query(`SELECT count(*)::int AS n FROM workflow_steps WHERE run_id = $1`, [run!.id]))[0].n).toBe(3);
  });
});
