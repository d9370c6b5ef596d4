import { logFormat } from './logging';

describe('log format', () => {
  it('is pretty for a person at a terminal outside production', () => {
    expect(logFormat(true, 'development')).toBe('pretty');
    expect(logFormat(true, 'test')).toBe('pretty');
  });

  it('is JSON when stdout is not a terminal (a pipe, a file, a log shipper)', () => {
    expect(logFormat(false, 'development')).toBe('json');
    expect(logFormat(false, 'production')).toBe('json');
  });

  it('is JSON in production, even at a terminal', () => {
    expect(logFormat(true, 'production')).toBe('json');
  });
});
