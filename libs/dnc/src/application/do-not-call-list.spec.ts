import { FixedClock } from '@outreach/core';
import { InMemoryDncRepository } from '../testing';
import { DoNotCallList } from './do-not-call-list';
import { codeOf } from '../../../platform/src/testing';

/* DoNotCallList over an in-memory repository: normalising, idempotent adds, look-ups, removal. */

describe('DoNotCallList', () => {
  const now = new Date('2026-03-01T10:00:00.000Z');
  let repository: InMemoryDncRepository;
  let dnc: DoNotCallList;

  beforeEach(() => {
    repository = new InMemoryDncRepository();
    dnc = new DoNotCallList(repository, new FixedClock(now));
  });

  it('stores the number in E.164 with its reason; the same number in another notation keeps the one entry', async () => {
    const first = await dnc.add('w1', { phone: '+1 (415) 555-2671', reason: '  asked us to stop  ' });
    expect(first).toEqual({
      created: true,
      entry: { id: expect.any(String), phone: '+14155552671', reason: 'asked us to stop', createdAt: now.toISOString() },
    });
    const again = await dnc.add('w1', { phone: '0014155552671' });
    expect(again).toEqual({ created: false, entry: first.entry });
    expect(repository.phones('w1')).toEqual(['+14155552671']);
  });

  it('refuses a number without its calling code or not a number: invalid_phone, status left to the route, nothing stored', async () => {
    for (const phone of ['4155552671', 'garbage', '', '+1 415 555 267']) {
      expect(await codeOf(dnc.add('w1', { phone }))).toEqual({ code: 'invalid_phone', chosenStatus: undefined });
    }
    expect(repository.entries).toEqual([]);
  });

  it('refuses a reason over 500 characters (invalid_request)', async () => {
    expect(await codeOf(dnc.add('w1', { phone: '+14155552671', reason: 'x'.repeat(501) }))).toEqual({ code: 'invalid_request', chosenStatus: undefined });
    expect(repository.entries).toEqual([]);
  });

  it('answers isBlocked and blockedAmong per workspace, for E.164 numbers', async () => {
    await dnc.add('w1', { phone: '+14155552671' });
    await dnc.add('w1', { phone: '+442079460958' });
    await dnc.add('w2', { phone: '+14155552672' });
    expect(await dnc.isBlocked('w1', '+14155552671')).toBe(true);
    expect(await dnc.isBlocked('w2', '+14155552671')).toBe(false);
    expect(await dnc.blockedAmong('w1', ['+14155552671', '+14155552672', '+442079460958', '+14155552671'])).toEqual(
      new Set(['+14155552671', '+442079460958']),
    );
  });

  it('removes by entry id or by phone in any notation; not_found when the number is not listed', async () => {
    const { entry } = await dnc.add('w1', { phone: '+14155552671' });
    await dnc.add('w1', { phone: '+14155552672' });
    expect(await codeOf(dnc.remove('w2', entry.id))).toEqual({ code: 'not_found', chosenStatus: undefined });
    await dnc.remove('w1', entry.id);
    await dnc.remove('w1', '001 415 555 2672');
    expect(repository.phones('w1')).toEqual([]);
    expect(await codeOf(dnc.remove('w1', '+14155552672'))).toEqual({ code: 'not_found', chosenStatus: undefined });
    expect(await codeOf(dnc.remove('w1', 'not a phone'))).toEqual({ code: 'not_found', chosenStatus: undefined });
  });

  it('lists newest first, paged', async () => {
    for (const phone of ['+14155552671', '+14155552672', '+14155552673']) await dnc.add('w1', { phone });
    const page = await dnc.list('w1', 1, 1);
    expect(page).toEqual({ total: 3, items: [expect.objectContaining({ phone: '+14155552672' })] });
  });
});
