import { jsonDepth } from './json-body.middleware';

describe('jsonDepth', () => {
  it('counts objects and arrays, not scalars', () => {
    expect(jsonDepth(1)).toBe(0);
    expect(jsonDepth({})).toBe(1);
    expect(jsonDepth({ a: [1, { b: null }] })).toBe(3);
  });

  it('measures a 100,000-level body without recursion and stops early when asked', () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(jsonDepth(deep)).toBe(100_001);
    expect(jsonDepth(deep, 32)).toBe(33);
  });
});
