import { WebhookSender } from '@outreach/results';
import { bearer, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { expectError } from './results-helpers';

/** With the default configuration (WEBHOOK_ALLOW_PRIVATE_TARGETS=false). */
describe('result webhooks refuse private, loopback and link-local targets', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
    t = await TestApp.create();
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });
  beforeEach(() => t.reset());

  it('400 invalid_body at url; nothing is created', async () => {
    expect(t.config.webhookAllowPrivateTargets).toBe(false);
    const ws = await t.seed({ features: ['api_results'] });
    for (const url of [
      receiver.url(),
      'http://localhost:8080/hook',
      'https://10.0.0.5/hook',
      'https://192.168.1.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:3000/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://0.0.0.0/hook',
      'http://100.64.1.1/hook',
    ]) {
      const res = await t.http.post('/result-webhooks').set(bearer(ws.key)).send({ url });
      expectError(res, 400, 'invalid_body');
      expect(res.body.issues).toEqual([{ path: 'url', message: expect.stringMatching(/private|resolve/) }]);
    }
    const created = await t.http.post('/result-webhooks').set(bearer(ws.key)).send({ url: 'https://8.8.8.8/hook' });
    expect(created.status).toBe(201); // a public literal passes (nothing is sent to it here)
    const patched = await t.http.patch(`/result-webhooks/${created.body.id}`).set(bearer(ws.key)).send({ url: 'http://127.0.0.1:9/x' });
    expectError(patched, 400, 'invalid_body');
    const list = await t.http.get('/result-webhooks').set(bearer(ws.key));
    expect(list.body.webhooks.map((w: { url: string }) => w.url)).toEqual(['https://8.8.8.8/hook']);
  });

  it('the sender refuses them at connection time too (a name that resolves inside later)', async () => {
    const sender = t.get(WebhookSender);
    for (const url of [receiver.url(), `http://localhost:${new URL(receiver.url()).port}/hook`]) {
      const res = await sender.send({ url, headers: {}, body: '{}', timeoutMs: 1000, allowPrivateTargets: false });
      expect(res).toMatchObject({ statusCode: null, error: expect.stringContaining('refused') });
    }
    expect(receiver.received).toHaveLength(0);
    const allowed = await sender.send({ url: receiver.url(), headers: {}, body: '{}', timeoutMs: 1000, allowPrivateTargets: true });
    expect(allowed.statusCode).toBe(200);
    expect(receiver.received).toHaveLength(1);
  });
});
