import { AppError } from '@outreach/core';
import { EmailTemplate } from './email-template';
import { isOptOutKeyword, optOutAddress } from './opt-out';
import { assertBindings, needsRuntimeContext, placeholdersOf, VariableBinding } from './variable-bindings';
import { WhatsappSender } from './whatsapp-sender';
import { WhatsappTemplate, WhatsappTemplateFields } from './whatsapp-template';

/* The messaging domain: bindings against placeholders, the sender and template state machines, opt-out keywords. */

const T0 = new Date('2026-11-25T10:00:00Z');
const bind = (placeholder: number, source: VariableBinding['source'], value: string): VariableBinding => ({ placeholder, source, value });

function issuesOf(work: () => void): Array<{ code: string; paths: string[] }> {
  try {
    work();
    return [];
  } catch (error) {
    const e = error as AppError;
    return [{ code: e.code, paths: (e.options.issues ?? []).map((i) => i.path) }];
  }
}

describe('variable bindings', () => {
  it('finds placeholders once each, in order, across texts', () => {
    expect(placeholdersOf('Hi {{2}} and {{1}}', null, 'again {{ 1 }}')).toEqual([1, 2]);
    expect(placeholdersOf('no placeholders {1} {{x}}')).toEqual([]);
  });

  it('accepts one binding per placeholder of every kind', () => {
    expect(() =>
      assertBindings(['Hi {{1}}, {{2}} {{3}} {{4}}'], [bind(1, 'CONTACT_FIELD', 'name'), bind(2, 'CAMPAIGN_VARIABLE', 'offer'), bind(3, 'CONSTANT', 'Acme'), bind(4, 'RUNTIME', 'payment_link')], 'body'),
    ).not.toThrow();
  });

  it.each([
    ['a gap in the numbering', ['Hi {{1}} {{3}}'], [bind(1, 'CONSTANT', 'a'), bind(3, 'CONSTANT', 'b')], ['body']],
    ['an unbound placeholder', ['Hi {{1}} {{2}}'], [bind(1, 'CONSTANT', 'a')], ['bindings']],
    ['a binding without its placeholder', ['Hi {{1}}'], [bind(1, 'CONSTANT', 'a'), bind(2, 'CONSTANT', 'b')], ['bindings.1.placeholder']],
    ['a placeholder bound twice', ['Hi {{1}}'], [bind(1, 'CONSTANT', 'a'), bind(1, 'CONSTANT', 'b')], ['bindings.1.placeholder']],
    ['an unknown runtime value', ['Hi {{1}}'], [bind(1, 'RUNTIME', 'coupon')], ['bindings.0.value']],
  ])('refuses %s with invalid_body and the path', (_what, texts, bindings, paths) => {
    expect(issuesOf(() => assertBindings(texts, bindings, 'body'))).toEqual([{ code: 'invalid_body', paths }]);
  });

  it('needs runtime context only with a RUNTIME binding', () => {
    expect(needsRuntimeContext([bind(1, 'CONTACT_FIELD', 'name')])).toBe(false);
    expect(needsRuntimeContext([bind(1, 'RUNTIME', 'payment_link')])).toBe(true);
  });
});

describe('WhatsApp sender', () => {
  const fresh = () => WhatsappSender.connectOwn({ id: 's1', workspaceId: 'w1', e164: '+14155550123', isDefault: true, now: T0 });

  it('starts CONNECTING and moves once to CONNECTED (or FAILED); a replay changes nothing', () => {
    const s = fresh();
    expect(s.toProps()).toMatchObject({ status: 'CONNECTING', mode: 'DEDICATED', numberSource: 'OWN_NUMBER', hasCredentials: true, phoneDisplay: '+14155550123' });
    expect(s.applyVerification({ ok: true, verifiedName: 'Acme', qualityRating: 'GREEN' }, T0)).toBe(true);
    expect(s.toProps()).toMatchObject({ status: 'CONNECTED', verifiedName: 'Acme', qualityRating: 'GREEN', connectedAt: T0 });
    expect(s.applyVerification({ ok: false, reason: 'late' }, T0)).toBe(false);
    expect(s.status).toBe('CONNECTED');
    const f = fresh();
    expect(f.applyVerification({ ok: false, reason: 'refused' }, T0)).toBe(true);
    expect(f.toProps()).toMatchObject({ status: 'FAILED', failureReason: 'refused', connectedAt: null });
  });

  it('a platform-shared sender is SHARED / PLATFORM_SHARED without credentials of its own', () => {
    const s = WhatsappSender.platformShared({ id: 's2', workspaceId: 'w1', e164: '+14155550124', isDefault: false, now: T0 });
    expect(s.toProps()).toMatchObject({ mode: 'SHARED', numberSource: 'PLATFORM_SHARED', hasCredentials: false, status: 'CONNECTING' });
  });

  it('the default cannot be switched off by itself (another sender is made the default instead)', () => {
    expect(issuesOf(() => fresh().edit({ isDefault: false }, T0))).toEqual([{ code: 'invalid_request', paths: [] }]);
  });
});

describe('WhatsApp template', () => {
  const fields: WhatsappTemplateFields = {
    name: 'order_update',
    language: 'en_US',
    category: 'UTILITY',
    body: 'Hi {{1}}',
    footer: null,
    bindings: [bind(1, 'CONTACT_FIELD', 'name')],
  };
  const fresh = (name = 'order_update') => WhatsappTemplate.create({ id: 't1', workspaceId: 'w1', fields: { ...fields, name }, now: T0 });

  it('DRAFT → PENDING → APPROVED; a second submit while PENDING changes nothing; an approved one cannot be submitted', () => {
    const t = fresh();
    expect(t.status).toBe('DRAFT');
    expect(t.submit(T0)).toBe(true);
    expect(t.submit(T0)).toBe(false);
    expect(t.applyReview({ status: 'PENDING' }, T0)).toBe(false);
    expect(t.applyReview({ status: 'APPROVED' }, T0)).toBe(true);
    expect(t.applyReview({ status: 'REJECTED', reason: 'late' }, T0)).toBe(false);
    expect(t.status).toBe('APPROVED');
    expect(issuesOf(() => t.submit(T0))).toEqual([{ code: 'invalid_request', paths: [] }]);
  });

  it('REJECTED keeps the reason; an edit takes it back to DRAFT and it can be submitted again', () => {
    const t = fresh();
    t.submit(T0);
    t.applyReview({ status: 'REJECTED', reason: 'bad' }, T0);
    expect(t.toProps()).toMatchObject({ status: 'REJECTED', rejectionReason: 'bad' });
    t.edit({ body: 'Hello {{1}}' }, T0);
    expect(t.toProps()).toMatchObject({ status: 'DRAFT', rejectionReason: null, body: 'Hello {{1}}' });
    expect(t.submit(T0)).toBe(true);
  });

  it('cannot be edited while PENDING; edits are checked against the bindings', () => {
    const t = fresh();
    expect(issuesOf(() => t.edit({ body: 'Hi {{1}} {{2}}' }, T0))).toEqual([{ code: 'invalid_body', paths: ['bindings'] }]);
    expect(t.toProps().body).toBe('Hi {{1}}');
    t.submit(T0);
    expect(issuesOf(() => t.edit({ footer: 'x' }, T0))).toEqual([{ code: 'invalid_request', paths: [] }]);
  });
});

describe('email template', () => {
  it('needs an HTML or a text body; subject and bodies share the placeholders', () => {
    const base = { name: 'Offer', subject: 'For {{1}}', htmlBody: null, textBody: null, bindings: [bind(1, 'CONTACT_FIELD', 'name')] };
    expect(issuesOf(() => EmailTemplate.create({ id: 'e1', workspaceId: 'w1', fields: base, isDefault: true, now: T0 }))).toEqual([
      { code: 'invalid_body', paths: ['textBody'] },
    ]);
    expect(
      issuesOf(() => EmailTemplate.create({ id: 'e1', workspaceId: 'w1', fields: { ...base, textBody: 'Hi {{1}}, {{2}}' }, isDefault: true, now: T0 })),
    ).toEqual([{ code: 'invalid_body', paths: ['bindings'] }]);
  });
});

describe('opt-outs', () => {
  it.each(['STOP', ' stop ', 'Unsubscribe', 'STOPALL', 'cancel', 'END', 'quit'])('%j is an opt-out keyword', (text) => {
    expect(isOptOutKeyword(text)).toBe(true);
  });

  it.each(['stop please', 'No thanks', 'Yes, interested', ''])('%j is not', (text) => {
    expect(isOptOutKeyword(text)).toBe(false);
  });

  it('keys email addresses in lower case', () => {
    expect(optOutAddress('EMAIL', ' Dana@Example.COM ')).toBe('dana@example.com');
    expect(optOutAddress('WHATSAPP', '+14155550123')).toBe('+14155550123');
  });
});
