import { AppError } from '@outreach/core';
import { applyProgress, canProgress, MessageProps, MessageStatus } from './message';
import { bindingValues, renderPlaceholders } from './message-rendering';

const outbound = (status: MessageStatus): MessageProps => ({
  id: 'm',
  workspaceId: 'w',
  channel: 'WHATSAPP',
  direction: 'OUTBOUND',
  status,
  senderId: 's',
  templateId: 't',
  address: '+14155550127',
  body: 'Hi',
  subject: null,
  content: null,
  idempotencyKey: 'k',
  provider: 'sandbox',
  providerMessageId: null,
  inReplyToId: null,
  failureReason: null,
  sendStartedAt: new Date(0),
  createdAt: new Date(0),
  sentAt: null,
  deliveredAt: null,
  readAt: null,
  failedAt: null,
  updatedAt: new Date(0),
});

describe('Message progress (decisions.md 30.13): forward only', () => {
  it.each([
    ['QUEUED', 'sent', true],
    ['QUEUED', 'delivered', true],
    ['SENT', 'delivered', true],
    ['SENT', 'read', true],
    ['DELIVERED', 'read', true],
    ['DELIVERED', 'failed', true],
    ['SENT', 'sent', false],
    ['DELIVERED', 'delivered', false],
    ['DELIVERED', 'sent', false],
    ['READ', 'delivered', false],
    ['READ', 'failed', false],
    ['FAILED', 'read', false],
    ['FAILED', 'delivered', false],
    ['RECEIVED', 'read', false],
  ] as const)('%s + %s → %s', (status, progress, moves) => {
    expect(canProgress(status, progress)).toBe(moves);
  });

  it('records the timestamps, the provider id once, and clears the send lease', () => {
    const m = outbound('QUEUED');
    const at = new Date('2026-01-01T00:00:00Z');
    expect(applyProgress(m, { progress: 'read', at, providerMessageId: 'wamid.1' })).toBe(true);
    expect(m).toMatchObject({ status: 'READ', readAt: at, deliveredAt: at, sentAt: at, providerMessageId: 'wamid.1', sendStartedAt: null });
    // A report that overtook the acceptance: delivered (so sent) by then; the late SENT still
    // records the provider id when it was missing, keeps that time and does not move DELIVERED back.
    const late = outbound('QUEUED');
    expect(applyProgress(late, { progress: 'delivered', at })).toBe(true);
    expect(applyProgress(late, { progress: 'sent', at: new Date('2026-01-01T00:00:01Z'), providerMessageId: 'wamid.2' })).toBe(false);
    expect(late).toMatchObject({ status: 'DELIVERED', providerMessageId: 'wamid.2', deliveredAt: at, sentAt: at });
    const failed = outbound('SENT');
    expect(applyProgress(failed, { progress: 'failed', at, reason: 'undeliverable' })).toBe(true);
    expect(failed).toMatchObject({ status: 'FAILED', failedAt: at, failureReason: 'undeliverable' });
  });

  it('never moves an inbound message', () => {
    const inbound = { ...outbound('RECEIVED'), direction: 'INBOUND' as const };
    expect(applyProgress(inbound, { progress: 'read', at: new Date() })).toBe(false);
  });
});

describe('message rendering (decisions.md 30.12)', () => {
  const bindings = [
    { placeholder: 2, source: 'CAMPAIGN_VARIABLE' as const, value: 'order_ref' },
    { placeholder: 1, source: 'CONTACT_FIELD' as const, value: 'name' },
    { placeholder: 3, source: 'RUNTIME' as const, value: 'payment_link' },
    { placeholder: 4, source: 'CONSTANT' as const, value: 'Acme' },
  ];

  it('fills each placeholder from its source, in placeholder order', () => {
    const values = bindingValues(bindings, { contact: { name: 'Ada' }, campaign: { order_ref: 17 }, runtime: { payment_link: 'https://pay.example/x' } });
    expect(values).toEqual(['Ada', '17', 'https://pay.example/x', 'Acme']);
    expect(renderPlaceholders('Hi {{1}}, order {{ 2 }}: {{3}} — {{4}}', values)).toBe('Hi Ada, order 17: https://pay.example/x — Acme');
    expect(renderPlaceholders('<b>{{1}}</b>', ['<Ada & "Bob">'], { html: true })).toBe('<b>&lt;Ada &amp; &quot;Bob&quot;&gt;</b>');
  });

  it('refuses a missing or blank value with one issue per binding (400 invalid_request)', () => {
    let error: unknown;
    try {
      bindingValues(bindings, { contact: { name: '  ' } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('invalid_request');
    expect((error as AppError).options.issues?.map((i) => i.path)).toEqual(['variables.contact.name', 'variables.campaign.order_ref', 'variables.runtime.payment_link']);
  });
});
