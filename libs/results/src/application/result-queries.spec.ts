import { randomUUID } from 'node:crypto';
import { FixedClock } from '../../../platform/src/testing';
import { encodeCursor } from '../domain/page-cursor';
import { aLeadResult, InMemoryResultStore } from '../testing';
import { ResultQueries } from './result-queries';

const NOW = new Date('2026-11-21T10:00:00Z');
const WS = 'ws-1';
const DAY_MS = 24 * 3600_000;

function setup() {
  const clock = new FixedClock(NOW);
  const results = new InMemoryResultStore();
  const queries = new ResultQueries(results, clock);
  const add = (campaignId: string, opts: { workspaceId?: string; expiresAt?: Date } = {}) => {
    const envelope = aLeadResult({ campaignId, createdAt: NOW });
    results.seed({
      id: envelope.id,
      workspaceId: opts.workspaceId ?? WS,
      campaignId,
      leadId: envelope.data.leadId,
      envelope,
      createdAt: NOW,
      expiresAt: opts.expiresAt ?? new Date(NOW.getTime() + 30 * DAY_MS),
    });
    return envelope;
  };
  return { clock, results, queries, add };
}

describe('ResultQueries (use case, ports faked)', () => {
  describe('get', () => {
    it('answers the stored envelope', async () => {
      const s = setup();
      const envelope = s.add('c-1');
      await expect(s.queries.get(WS, envelope.id)).resolves.toEqual(envelope);
    });

    it('answers result_not_found for a malformed, unknown or another workspace’s id', async () => {
      const s = setup();
      const foreign = s.add('c-1', { workspaceId: 'ws-2' });
      for (const id of ['not-a-uuid', randomUUID(), foreign.id]) {
        await expect(s.queries.get(WS, id)).rejects.toMatchObject({ code: 'result_not_found', status: 404 });
      }
    });

    it('answers result_expired (410, with expiredAt) once retention has passed by the clock, and for a tombstone', async () => {
      const s = setup();
      const expiresAt = new Date(NOW.getTime() + 60_000);
      const envelope = s.add('c-1', { expiresAt });
      await expect(s.queries.get(WS, envelope.id)).resolves.toBeDefined();
      s.clock.set(expiresAt);
      await expect(s.queries.get(WS, envelope.id)).rejects.toMatchObject({
        code: 'result_expired',
        status: 410,
        options: { extra: { expiredAt: expiresAt.toISOString() } },
      });
      const tomb = s.add('c-1');
      s.results.rows.find((r) => r.id === tomb.id)!.envelope = null;
      await expect(s.queries.get(WS, tomb.id)).rejects.toMatchObject({ code: 'result_expired' });
    });
  });

  describe('list', () => {
    it('pages oldest first with a cursor, without repeats or gaps', async () => {
      const s = setup();
      const [a, b, c] = [s.add('c-1'), s.add('c-1'), s.add('c-1')];
      const first = await s.queries.list(WS, { limit: 2 });
      expect(first.items.map((e) => e.id)).toEqual([a.id, b.id]);
      expect(first.nextCursor).toEqual(expect.any(String));
      const d = s.add('c-1'); // arrives between pages
      const second = await s.queries.list(WS, { limit: 2, cursor: first.nextCursor! });
      expect(second).toEqual({ items: [c, d], nextCursor: null });
    });

    it('filters by campaign and leaves out expired results and other workspaces', async () => {
      const s = setup();
      const keep = s.add('c-1');
      s.add('c-2');
      s.add('c-1', { expiresAt: NOW });
      s.add('c-1', { workspaceId: 'ws-2' });
      await expect(s.queries.list(WS, { limit: 10, campaignId: 'c-1' })).resolves.toEqual({ items: [keep], nextCursor: null });
    });

    it('answers invalid_cursor for a malformed cursor or one of another list', async () => {
      const s = setup();
      for (const cursor of ['%%%', Buffer.from('results:abc').toString('base64url'), encodeCursor('deliveries', '1')]) {
        await expect(s.queries.list(WS, { limit: 10, cursor })).rejects.toMatchObject({ code: 'invalid_cursor' });
      }
    });
  });
});
