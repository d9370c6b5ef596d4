import { contactOfMessageKey, emailAddressOf, legMessageKey, replyWindowMs, templateForMetric } from './message-legs';

describe('message legs (decisions.md 33)', () => {
  it('a transient retry keeps the key; an undelivered retry gets a new one', () => {
    const id = '6f1e2d3c-0000-4000-8000-000000000001';
    expect(legMessageKey({ id, attemptSeq: 3, messageTransient: 0 })).toBe(`leg-${id}-3`);
    // Refused for now twice: claimed again twice, the same message.
    expect(legMessageKey({ id, attemptSeq: 5, messageTransient: 2 })).toBe(`leg-${id}-3`);
    expect(legMessageKey({ id, attemptSeq: 6, messageTransient: 0 })).toBe(`leg-${id}-6`);
  });

  it("the reply window is the MESSAGE_REPLY rule's afterDays, one day without one", () => {
    expect(replyWindowMs([])).toBe(86_400_000);
    expect(replyWindowMs([{ trigger: 'OTHER', afterDays: 9 }, { trigger: 'MESSAGE_REPLY', afterDays: 3 }])).toBe(3 * 86_400_000);
    expect(replyWindowMs([{ trigger: 'MESSAGE_REPLY', afterDays: 0 }])).toBe(0);
  });

  it("whatsappTemplateByMetric: the first metric whose value names a template", () => {
    const mapping = { interest: { high: 'tpl-hot', low: 'tpl-cold' }, mood: { calm: 'tpl-calm' } };
    expect(templateForMetric(mapping, { interest: 'low', mood: 'calm' })).toBe('tpl-cold');
    expect(templateForMetric(mapping, { interest: 'unknown', mood: 'calm' })).toBe('tpl-calm');
    expect(templateForMetric(mapping, { other: 'x' })).toBeNull();
    expect(templateForMetric(mapping, null)).toBeNull();
  });

  it('the contact a message was sent for, from its key (a leg, a remessage); null for other keys', () => {
    const contact = '0b6e4c1e-2f3a-4d5b-8c7d-9e0f1a2b3c4d';
    const remessage = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
    expect(contactOfMessageKey(legMessageKey({ id: contact, attemptSeq: 3, messageTransient: 1 }))).toBe(contact);
    expect(contactOfMessageKey(`remessage-${remessage}-${contact}`)).toBe(contact);
    for (const other of [null, '', `test-${contact}`, `leg-${contact}`, `leg-${contact}-x`, `remessage-${contact}`, 'leg-not-a-uuid-1']) expect(contactOfMessageKey(other)).toBeNull();
  });

  it('the email address is the contact field `email`', () => {
    expect(emailAddressOf({ Email: ' ana@example.com ' })).toBe('ana@example.com');
    expect(emailAddressOf({ email: 'not an address' })).toBeNull();
    expect(emailAddressOf({})).toBeNull();
  });
});
