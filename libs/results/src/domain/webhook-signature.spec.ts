import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signatureHeader, signWebhook, WEBHOOK_SECRET_PREFIX } from './webhook-signature';

describe('Standard Webhooks signatures', () => {
  const id = 'f1c7b0de-5b0e-4bde-9d5a-8a4f6b7b2c11';
  const body = JSON.stringify({ id, type: 'api.lead.result', data: { status: 'completed' } });

  it('secrets are whsec_ + base64 of 32 random bytes, all different', () => {
    const a = newWebhookSecret();
    expect(a.startsWith(WEBHOOK_SECRET_PREFIX)).toBe(true);
    expect(Buffer.from(a.slice(WEBHOOK_SECRET_PREFIX.length), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('the standardwebhooks package verifies what we sign', () => {
    const secret = newWebhookSecret();
    const ts = Math.floor(Date.now() / 1000);
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signWebhook(secret, id, ts, body) };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(signWebhook(secret, id, ts, body)).toBe(new Webhook(secret).sign(id, new Date(ts * 1000), body));
  });

  it('a tampered body or another secret fails verification', () => {
    const secret = newWebhookSecret();
    const ts = Math.floor(Date.now() / 1000);
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signWebhook(secret, id, ts, body) };
    expect(() => new Webhook(secret).verify(body.replace('completed', 'failed'), headers)).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('during a rotation both secrets verify the same delivery', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const ts = Math.floor(Date.now() / 1000);
    const header = signatureHeader([current, previous], id, ts, body);
    expect(header.split(' ')).toHaveLength(2);
    for (const secret of [current, previous]) {
      expect(() => new Webhook(secret).verify(body, { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': header })).not.toThrow();
    }
  });
});
