import { hubSignature, MessagingWebhookNotAuthentic, readEmailWebhook, readWhatsappWebhook, verifyHubSignature } from './provider-reports';

const raw = (body: unknown) => Buffer.from(JSON.stringify(body));

describe('webhook signatures (X-Hub-Signature-256)', () => {
  const body = raw({ entry: [] });

  it('accepts sha256=<hex HMAC-SHA256(secret, raw body)> and nothing else', () => {
    expect(() => verifyHubSignature('s3cret', hubSignature('s3cret', body), body)).not.toThrow();
    expect(() => verifyHubSignature('s3cret', hubSignature('s3cret', body).toUpperCase().replace('SHA256', 'sha256'), body)).not.toThrow();
    for (const header of [undefined, '', 'sha1=abc', hubSignature('other', body), `sha256=${'0'.repeat(64)}`]) {
      expect(() => verifyHubSignature('s3cret', header, body)).toThrow(MessagingWebhookNotAuthentic);
    }
    expect(() => verifyHubSignature('s3cret', hubSignature('s3cret', body), raw({ entry: [1] }))).toThrow(MessagingWebhookNotAuthentic);
  });
});

describe('readWhatsappWebhook (Cloud API payload)', () => {
  it('reads statuses and inbound messages; skips unknown statuses and change kinds', () => {
    const reports = readWhatsappWebhook(
      'cloud_api',
      raw({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: 'WABA',
            changes: [
              {
                field: 'messages',
                value: {
                  statuses: [
                    { id: 'wamid.A', status: 'delivered', timestamp: '1700000000', recipient_id: '14155550127' },
                    { id: 'wamid.A', status: 'failed', timestamp: '1700000001', errors: [{ code: 131026, title: 'Message undeliverable' }] },
                    { id: 'wamid.A', status: 'deleted', timestamp: '1700000002' },
                  ],
                  messages: [
                    { from: '14155550127', id: 'wamid.IN', timestamp: '1700000003', type: 'text', text: { body: 'STOP' }, context: { id: 'wamid.A' } },
                    { from: '14155550128', id: 'wamid.IMG', timestamp: '1700000004', type: 'image', image: { id: 'x' } },
                  ],
                },
              },
              { field: 'account_update', value: { event: 'VERIFIED' } },
            ],
          },
        ],
      }),
    );
    expect(reports).toEqual([
      { type: 'status', channel: 'WHATSAPP', provider: 'cloud_api', eventId: 'wamid.A:delivered', providerMessageId: 'wamid.A', status: 'delivered', at: '2023-11-14T22:13:20.000Z' },
      {
        type: 'status',
        channel: 'WHATSAPP',
        provider: 'cloud_api',
        eventId: 'wamid.A:failed',
        providerMessageId: 'wamid.A',
        status: 'failed',
        reason: '131026 Message undeliverable',
        at: '2023-11-14T22:13:21.000Z',
      },
      { type: 'inbound', channel: 'WHATSAPP', provider: 'cloud_api', eventId: 'wamid.IN', providerMessageId: 'wamid.IN', from: '+14155550127', text: 'STOP', inReplyTo: 'wamid.A', at: '2023-11-14T22:13:23.000Z' },
      { type: 'inbound', channel: 'WHATSAPP', provider: 'cloud_api', eventId: 'wamid.IMG', providerMessageId: 'wamid.IMG', from: '+14155550128', text: '[image]', inReplyTo: null, at: '2023-11-14T22:13:24.000Z' },
    ]);
  });

  it('refuses what is not a webhook body', () => {
    expect(() => readWhatsappWebhook('sandbox', Buffer.from('nope'))).toThrow(MessagingWebhookNotAuthentic);
    expect(() => readWhatsappWebhook('sandbox', raw({ object: 'x' }))).toThrow(MessagingWebhookNotAuthentic);
    expect(() => readWhatsappWebhook('sandbox', raw({ entry: [{ changes: [{ value: { statuses: [{ status: 'read', timestamp: '1' }] } }] }] }))).toThrow(
      MessagingWebhookNotAuthentic,
    );
  });
});

describe('readEmailWebhook', () => {
  it('reads bounces (hard by default), complaints and deliveries', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const reports = readEmailWebhook(
      'sandbox',
      raw({
        events: [
          { id: 'e1', type: 'bounce', messageId: '<m1@x>', reason: '550', timestamp: at },
          { id: 'e2', type: 'bounce', bounceType: 'soft', messageId: '<m1@x>', timestamp: at },
          { id: 'e3', type: 'complaint', messageId: '<m1@x>', timestamp: at },
          { id: 'e4', type: 'delivered', messageId: '<m1@x>', timestamp: at },
        ],
      }),
    );
    expect(reports.map((r) => [r.type, 'permanent' in r ? r.permanent : null])).toEqual([
      ['bounce', true],
      ['bounce', false],
      ['complaint', null],
      ['status', null],
    ]);
    expect(() => readEmailWebhook('sandbox', raw({ events: [{ id: 'e', type: 'opened', messageId: 'm', timestamp: at }] }))).toThrow(MessagingWebhookNotAuthentic);
  });
});
