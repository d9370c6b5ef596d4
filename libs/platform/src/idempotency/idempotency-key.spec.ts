import { AppError } from '@outreach/core';
import { canonicalJson, parseIdempotencyKey, requestHash } from './idempotency-key';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? e.code : 'not-an-app-error';
  }
  return undefined;
};

describe('Idempotency-Key header', () => {
  it('is required', () => {
    expect(codeOf(() => parseIdempotencyKey(undefined))).toBe('idempotency_key_required');
    expect(codeOf(() => parseIdempotencyKey('   '))).toBe('idempotency_key_required');
  });

  it('is 1-200 printable ASCII characters', () => {
    expect(parseIdempotencyKey('a'.repeat(200))).toBe('a'.repeat(200));
    expect(parseIdempotencyKey('order 42/~!')).toBe('order 42/~!');
    expect(codeOf(() => parseIdempotencyKey('a'.repeat(201)))).toBe('idempotency_key_invalid');
    expect(codeOf(() => parseIdempotencyKey('clé'))).toBe('idempotency_key_invalid');
    expect(codeOf(() => parseIdempotencyKey('a\u0001b'))).toBe('idempotency_key_invalid');
    expect(codeOf(() => parseIdempotencyKey('a\tb'))).toBe('idempotency_key_invalid');
  });
});

describe('request hash', () => {
  it('ignores member order, not values', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    const h = (body: unknown, path = '/calls/test') => requestHash({ method: 'post', path, query: {}, body });
    expect(h({ a: 1, b: 2 })).toBe(h({ b: 2, a: 1 }));
    expect(h({ a: 1 })).not.toBe(h({ a: '1' }));
    expect(h({ a: 1 })).not.toBe(h({ a: 1 }, '/calls/other'));
    expect(h({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});
