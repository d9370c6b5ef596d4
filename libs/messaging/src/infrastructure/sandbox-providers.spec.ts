import { FixedClock } from '@outreach/core';
import { MessageEvent, MessageEvents, TransientProviderError } from '../application/message-provider.port';
import { SandboxEmailProvider, sandboxEmailOutcome } from './sandbox-email.provider';
import { SandboxWhatsappProvider, sandboxSenderVerification, sandboxTemplateReview, sandboxWhatsappScript } from './sandbox-whatsapp.provider';

/* The deterministic sandboxes of decisions.md section 30 and decisions.md 30.3: every rule, digit by digit. */

const types = (to: string) => {
  const script = sandboxWhatsappScript(to);
  return script.accepted ? script.events.map((e) => (e.type === 'replied' ? `replied:${e.text}` : e.type)) : ['transient'];
};

describe('sandbox WhatsApp outcome by the recipient number’s last digit', () => {
  it.each([
    ['+14155550100', ['failed']],
    ['+14155550101', ['transient']],
    ['+14155550102', ['delivered']],
    ['+14155550103', ['delivered', 'read']],
    ['+14155550104', ['delivered', 'read', 'replied:STOP']],
    ['+14155550105', ['delivered', 'read', 'replied:Yes, interested']],
    ['+14155550106', ['delivered', 'read', 'replied:No thanks']],
    ['+14155550107', ['delivered', 'read']],
    ['+14155550108', ['delivered', 'read']],
    ['+14155550109', ['delivered', 'read']],
  ])('%s → %j', (to, expected) => {
    expect(types(to)).toEqual(expected);
  });

  it('0 is a permanent failure', () => {
    const script = sandboxWhatsappScript('+14155550100');
    expect(script.accepted && script.events[0]).toMatchObject({ type: 'failed', permanent: true });
  });
});

describe('SandboxWhatsappProvider', () => {
  const clock = new FixedClock(new Date('2026-11-25T10:00:00Z'));
  const message = (to: string) => ({
    messageId: 'm-1',
    senderId: 's-1',
    from: '+14155550199',
    to,
    templateName: 'order_update',
    language: 'en_US',
    parameters: ['Dana'],
    credentials: null,
  });

  it('accepts with a provider id derived from our message id (idempotent), and delivers the scripted events', async () => {
    const events = new MessageEvents();
    const seen: MessageEvent[] = [];
    events.subscribe(async (e) => void seen.push(e));
    const provider = new SandboxWhatsappProvider(events, clock);
    const first = await provider.send(message('+14155550104'));
    const again = await provider.send(message('+14155550104'));
    expect(first.providerMessageId).toMatch(/^wamid\.sandbox\.[0-9a-f]{24}$/);
    expect(again).toEqual(first);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen.slice(0, 3).map((e) => e.type)).toEqual(['delivered', 'read', 'replied']);
    expect(seen[2]).toMatchObject({ channel: 'WHATSAPP', messageId: 'm-1', providerMessageId: first.providerMessageId, text: 'STOP' });
  });

  it('refuses a number ending in 1 with a transient error (nothing accepted)', async () => {
    const provider = new SandboxWhatsappProvider(new MessageEvents(), clock);
    await expect(provider.send(message('+14155550101'))).rejects.toBeInstanceOf(TransientProviderError);
  });

  it('verifies senders: a number ending in 0 fails, any other connects with a verified name and GREEN', async () => {
    const provider = new SandboxWhatsappProvider(new MessageEvents(), clock);
    expect(await provider.verifySender({ senderId: 's', e164: '+14155550120', credentials: null })).toEqual({
      ok: false,
      reason: expect.stringContaining('ending in 0'),
    });
    expect(sandboxSenderVerification('+14155550123')).toEqual({ ok: true, verifiedName: 'Sandbox 0123', qualityRating: 'GREEN' });
  });

  it('reviews templates: a name starting with reject is REJECTED, any other APPROVED', () => {
    expect(sandboxTemplateReview('reject_me')).toMatchObject({ status: 'REJECTED' });
    expect(sandboxTemplateReview('Rejected_offer')).toMatchObject({ status: 'REJECTED' });
    expect(sandboxTemplateReview('order_update')).toEqual({ status: 'APPROVED' });
    expect(sandboxTemplateReview('please_reject')).toEqual({ status: 'APPROVED' });
  });
});

describe('sandbox email outcome by the recipient’s local part', () => {
  it.each([
    ['dana@example.com', 'delivered'],
    ['hard.bounce+1@example.com', 'bounced'],
    ['BOUNCE@example.com', 'bounced'],
    ['will-complain@example.com', 'complained'],
    ['dana@bounce.example.com', 'delivered'],
  ])('%s → %s', (to, outcome) => {
    expect(sandboxEmailOutcome(to)).toBe(outcome);
  });

  it('a complaint arrives after delivery and is permanent (an opt-out); a bounce is permanent; sends of one turn report together, each in order', async () => {
    const events = new MessageEvents();
    const seen: MessageEvent[] = [];
    events.subscribe(async (e) => void seen.push(e));
    const provider = new SandboxEmailProvider(events, new FixedClock());
    const base = { senderId: 's', from: { address: 'a@example.com', name: 'A' }, replyTo: null, subject: 'Hi', html: null, text: 'Hi', unsubscribeUrl: null, credentials: null };
    await provider.send({ ...base, messageId: 'e-1', to: 'complain@example.com' });
    await provider.send({ ...base, messageId: 'e-2', to: 'bounce@example.com' });
    await new Promise((r) => setTimeout(r, 20));
    // One batch for the turn, each message's reports in the order they happen (decisions.md 47.18).
    expect(seen.map((e) => [e.messageId, e.type])).toEqual([
      ['e-1', 'delivered'],
      ['e-1', 'complained'],
      ['e-2', 'bounced'],
    ]);
    expect(seen[1]).toMatchObject({ permanent: true });
    expect(seen[2]).toMatchObject({ permanent: true });
  });
});
