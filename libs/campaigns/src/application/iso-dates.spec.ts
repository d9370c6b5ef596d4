import { withIsoDates } from './iso-dates';

describe('withIsoDates', () => {
  it('turns top-level dates into ISO strings and keeps everything else', () => {
    const at = new Date('2030-01-02T03:04:05.000Z');
    expect(withIsoDates({ a: at, b: null as Date | null, c: 'x', d: { nested: at }, e: [1] })).toEqual({
      a: '2030-01-02T03:04:05.000Z',
      b: null,
      c: 'x',
      d: { nested: at },
      e: [1],
    });
  });
});
