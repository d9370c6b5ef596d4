import { AppError } from '@outreach/core';
import { canonicalJson, contactFields, leadFingerprint, readIdempotencyKey } from './lead';

function codeOf(fn: () => unknown): { code: string; status: number; chosenStatus?: number } | null {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof AppError
      ? { code: error.code, status: error.status, chosenStatus: error.options.status }
      : { code: 'not-app-error', status: 0 };
  }
}

describe('lead push idempotency key', () => {
  // The domain raises the code and leaves the status to the lead routes, which answer it with 422
  // (@AnswerErrors in leads.controller.ts; test/results/leads.e2e-spec.ts checks the answer).
  it('missing (undefined or null) → idempotency_key_required, the status left to the route', () => {
    expect(codeOf(() => readIdempotencyKey(undefined))).toEqual({ code: 'idempotency_key_required', status: 400, chosenStatus: undefined });
    expect(codeOf(() => readIdempotencyKey(null))).toEqual({ code: 'idempotency_key_required', status: 400, chosenStatus: undefined });
  });

  it('1-200 printable ASCII characters pass', () => {
    expect(readIdempotencyKey('a')).toBe('a');
    expect(readIdempotencyKey('order-42 / retry #1 ~!')).toBe('order-42 / retry #1 ~!');
    expect(readIdempotencyKey('k'.repeat(200))).toBe('k'.repeat(200));
  });

  it.each<[unknown, string]>([['', 'empty'], ['k'.repeat(201), 'too long'], ['café', 'non-ASCII'], ['tab\there', 'control character'], [42, 'a number']])(
    '%j (%s) → 400 idempotency_key_invalid',
    (value) => {
      expect(codeOf(() => readIdempotencyKey(value))).toEqual({ code: 'idempotency_key_invalid', status: 400, chosenStatus: undefined });
    },
  );
});

describe('lead fingerprint', () => {
  const lead = { phone: '+14155552671', name: 'Ada', fields: { plan: 'pro', seats: 3, vip: true, note: null } };

  it('ignores member order, sees every value', () => {
    const reordered = { fields: { vip: true, note: null, seats: 3, plan: 'pro' }, name: 'Ada', phone: '+14155552671' };
    expect(leadFingerprint(reordered)).toBe(leadFingerprint(lead));
    expect(leadFingerprint({ ...lead, name: 'Ada L.' })).not.toBe(leadFingerprint(lead));
    expect(leadFingerprint({ ...lead, fields: { ...lead.fields, seats: '3' } })).not.toBe(leadFingerprint(lead));
    expect(leadFingerprint({ ...lead, phone: '+14155552672' })).not.toBe(leadFingerprint(lead));
  });

  it('canonical JSON sorts members at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}');
  });

  it('contact fields are text', () => {
    expect(contactFields({ plan: 'pro', seats: 3, vip: false, note: null })).toEqual({ plan: 'pro', seats: '3', vip: 'false', note: '' });
  });
});
