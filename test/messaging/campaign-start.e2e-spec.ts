import { WorkerModule } from '../../apps/worker/src/worker.module';
import { addContacts, createCampaign, credit, expectError, readCampaign } from '../campaigns/campaign-helpers';
import { waitFor } from '../support/tcp-proxy';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { connectSender, createTemplate, numberEndingIn } from './messaging-helpers';

/*
 * Issue 12 item 3/4: the campaign start checks about messaging, answered by the messaging module's
 * real senders and templates (no faked readiness ports any more; decisions.md 30.7). Senders are
 * verified and templates reviewed by the real worker.
 */
describe('campaign start with the messaging module (WhatsApp and email legs)', () => {
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
    worker = await WorkerApp.create({ root: WorkerModule });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed({ features: ['whatsapp', 'email'] });
    await credit(t, ws.workspaceId);
  });

  const k = () => bearer(ws.key);
  const start = (id: string) => t.http.post(`/campaigns/${id}/start`).set(k()).send({});
  const setTemplate = async (campaignId: string, templateId: string) => {
    const res = await t.http.patch(`/v1/campaigns/${campaignId}`).set(k()).send({ whatsappOutreachTemplateId: templateId });
    if (res.status !== 200) throw new Error(`PATCH campaign: ${res.status} ${JSON.stringify(res.body)}`);
  };
  const reviewed = async (id: string, status: string) =>
    waitFor(`template ${id} ${status}`, async () => (await t.http.get(`/whatsapp/templates/${id}`).set(k())).body.status === status, 20_000);

  it('WhatsApp: needs_sender → needs_template → outreach_template_not_approved → needs_runtime_context → RUNNING', async () => {
    const unknownTemplate = '0b0b0b0b-0000-4000-8000-000000000000';
    const c = await createCampaign(t, ws.key, { channel: 'WHATSAPP', whatsappOutreachTemplateId: unknownTemplate });
    await addContacts(t, ws.key, c.id, ['+14155552671']);
    const before = await readCampaign(t, ws.key, c.id);

    // No sender at all, then a sender still CONNECTING, then one the sandbox refused: none can send.
    expectError(await start(c.id), 400, 'campaign_channel_needs_sender');
    const failing = await connectSender(t, ws.key, numberEndingIn(0));
    expectError(await start(c.id), 400, 'campaign_channel_needs_sender');
    await waitFor('the sender to fail', async () => (await t.http.get(`/whatsapp/senders/${failing.id}`).set(k())).body.status === 'FAILED', 20_000);
    expectError(await start(c.id), 400, 'campaign_channel_needs_sender');
    const sender = await connectSender(t, ws.key, numberEndingIn(4));
    await waitFor('the sender to connect', async () => (await t.http.get(`/whatsapp/senders/${sender.id}`).set(k())).body.status === 'CONNECTED', 20_000);

    // The template id is unknown in this workspace (another workspace's template is unknown too).
    expectError(await start(c.id), 400, 'campaign_channel_needs_template');
    const other = await t.seed({ features: ['whatsapp'] });
    const foreign = await createTemplate(t, other.key);
    await setTemplate(c.id, foreign.id as string);
    expectError(await start(c.id), 400, 'campaign_channel_needs_template');

    // DRAFT, then PENDING, then REJECTED: not approved.
    const rejected = await createTemplate(t, ws.key, { name: 'reject_outreach' });
    await setTemplate(c.id, rejected.id as string);
    expectError(await start(c.id), 400, 'outreach_template_not_approved');
    await t.http.post(`/whatsapp/templates/${rejected.id}/submit`).set(k());
    await reviewed(rejected.id as string, 'REJECTED');
    expectError(await start(c.id), 400, 'outreach_template_not_approved');

    // APPROVED but with a binding only known at send time (a payment link).
    const runtime = await createTemplate(t, ws.key, {
      body: 'Hi {{1}}, pay here: {{2}}',
      bindings: [
        { placeholder: 1, source: 'CONTACT_FIELD', value: 'name' },
        { placeholder: 2, source: 'RUNTIME', value: 'payment_link' },
      ],
    });
    await t.http.post(`/whatsapp/templates/${runtime.id}/submit`).set(k());
    await reviewed(runtime.id as string, 'APPROVED');
    await setTemplate(c.id, runtime.id as string);
    expectError(await start(c.id), 400, 'outreach_template_needs_runtime_context');
    expect((await readCampaign(t, ws.key, c.id)).status).toBe(before.status);

    const ready = await createTemplate(t, ws.key);
    await t.http.post(`/whatsapp/templates/${ready.id}/submit`).set(k());
    await reviewed(ready.id as string, 'APPROVED');
    await setTemplate(c.id, ready.id as string);
    const started = await start(c.id);
    expect({ status: started.status, campaign: started.body.status }).toEqual({ status: 200, campaign: 'RUNNING' });
  }, 60_000);

  it('EMAIL: campaign_channel_needs_email_sender → campaign_channel_needs_email_template → RUNNING', async () => {
    const c = await createCampaign(t, ws.key, { channel: 'EMAIL' });
    await addContacts(t, ws.key, c.id, ['+14155552671']);
    const before = await readCampaign(t, ws.key, c.id);
    expectError(await start(c.id), 400, 'campaign_channel_needs_email_sender');
    const sender = await t.http
      .post('/email/senders')
      .set(k())
      .send({ fromAddress: 'sales@example.com', displayName: 'Acme', smtp: { host: 'smtp.example.com', port: 587, username: 'u', password: 'p' } });
    expect(sender.status).toBe(201);
    expectError(await start(c.id), 400, 'campaign_channel_needs_email_template');
    expect(await readCampaign(t, ws.key, c.id)).toEqual(before);
    const template = await t.http.post('/email/templates').set(k()).send({ name: 'Offer', subject: 'Hello', textBody: 'Hi there' });
    expect(template.status).toBe(201);
    const started = await start(c.id);
    expect({ status: started.status, campaign: started.body.status }).toEqual({ status: 200, campaign: 'RUNNING' });
  });
});
