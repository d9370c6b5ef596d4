import { allowedFrom } from '../domain/contact-state-machine';
import { statusIn } from './contact-status.sql';

describe('statusIn', () => {
  it('appends one parameter per status and numbers the placeholders after the existing ones', () => {
    const params: unknown[] = ['campaign'];
    expect(statusIn('status', allowedFrom('restart'), params)).toBe('status IN ($2::text, $3::text, $4::text)');
    expect(params).toEqual(['campaign', 'FAILED', 'PENDING', 'RETRY_SCHEDULED']);
    expect(statusIn('c.status', allowedFrom('claim'), params)).toBe('c.status IN ($5::text)');
    expect(params[4]).toBe('PENDING');
  });

  it('refuses an empty list (it would match nothing silently)', () => {
    expect(() => statusIn('status', [], [])).toThrow();
  });
});
