import { Logger } from '@nestjs/common';
import { ApiLeadIntake } from '@outreach/campaigns';
import { aCampaign, InMemoryApiLeadContactStore, InMemoryCampaignRepository, InMemoryContactRepository, inMemoryTimeline } from '../../../campaigns/src/testing';
import { RecordingOutbox } from '../../../platform/src/testing';
import { testAppConfig } from '../../../workspaces/src/testing';
import { encodeCursor } from '../domain/page-cursor';
import { InMemoryApiLogStore } from '../testing';
import { API_LOG_BATCH_ROWS, API_LOG_MAX_BUFFERED, ApiLogs } from './api-logs.service';
import { ApiLogEntry } from './results.ports';

const WS = 'ws-1';
const CID = 'c-1';
const T0 = new Date('2026-11-21T10:00:00Z');

/** Counts the statements: each insertMany is one multi-row INSERT in the SQL store. */
class CountingApiLogStore extends InMemoryApiLogStore {
  readonly batches: number[] = [];
  failNext = false;

  override async insertMany(entries: readonly ApiLogEntry[]): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('database unavailable');
    }
    this.batches.push(entries.length);
    await super.insertMany(entries);
  }
}

function setup(flushMs = 60_000) {
  const contacts = new InMemoryContactRepository();
  const campaigns = new InMemoryCampaignRepository(contacts);
  const intake = new ApiLeadIntake(campaigns, new InMemoryApiLeadContactStore(campaigns, contacts), new RecordingOutbox(), inMemoryTimeline());
  const store = new CountingApiLogStore();
  campaigns.seed(aCampaign({ workspaceId: WS, id: CID, draft: { source: 'API' } }));
  campaigns.seed(aCampaign({ workspaceId: 'ws-2', id: 'c-foreign' }));
  return { store, logs: new ApiLogs(store, intake, testAppConfig({ apiLogFlushMs: flushMs })) };
}

function entry(n: number, campaignId = CID, workspaceId = WS) {
  return {
    workspaceId,
    campaignId,
    method: 'POST',
    route: '/v1/campaigns/:id/leads',
    path: `/v1/campaigns/${campaignId}/leads`,
    status: n % 2 === 0 ? 201 : 422,
    errorCode: n % 2 === 0 ? null : 'invalid_phone',
    latencyMs: n,
    keyId: 'key-1',
    requestId: `req-${n}`,
    at: new Date(T0.getTime() + n * 1000),
  };
}

describe('ApiLogs (use case, ports faked)', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('records entries and pages them newest first with a cursor', async () => {
    const s = setup();
    for (let n = 1; n <= 3; n += 1) s.logs.record(entry(n));
    s.logs.record(entry(9, 'c-other'));
    await s.logs.flush();

    const first = await s.logs.page(WS, CID, { limit: 2 });
    expect(first.items.map((l) => l.requestId)).toEqual(['req-3', 'req-2']);
    expect(first.items[0]).toMatchObject({ method: 'POST', status: 422, error: 'invalid_phone', latencyMs: 3, createdAt: entry(3).at.toISOString() });
    const second = await s.logs.page(WS, CID, { limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((l) => l.requestId)).toEqual(['req-1']);
    expect(second.nextCursor).toBeNull();
  });

  it('answers campaign_not_found for an unknown or another workspace’s campaign', async () => {
    const s = setup();
    s.logs.record(entry(1, 'c-foreign', 'ws-2'));
    await s.logs.flush();
    await expect(s.logs.page(WS, 'c-foreign', { limit: 10 })).rejects.toMatchObject({ code: 'campaign_not_found' });
    await expect(s.logs.page(WS, 'nope', { limit: 10 })).rejects.toMatchObject({ code: 'campaign_not_found' });
  });

  it('answers invalid_cursor for a malformed cursor or one of another list', async () => {
    const s = setup();
    for (const cursor of ['!!', encodeCursor('results', '5')]) {
      await expect(s.logs.page(WS, CID, { limit: 10, cursor })).rejects.toMatchObject({ code: 'invalid_cursor' });
    }
  });

  describe('batching (decisions.md 41.3)', () => {
    afterEach(() => jest.useRealTimers());

    it('buffers lines and writes them in one insert per flush interval, in the order recorded', async () => {
      jest.useFakeTimers();
      const s = setup(1000);
      for (let n = 1; n <= 5; n += 1) s.logs.record(entry(n));
      expect(s.store.batches).toEqual([]); // nothing written while the interval runs
      await jest.advanceTimersByTimeAsync(999);
      expect(s.store.batches).toEqual([]);
      await jest.advanceTimersByTimeAsync(1);
      expect(s.store.batches).toEqual([5]);
      expect(s.store.entries.map((e) => e.entry.requestId)).toEqual(['req-1', 'req-2', 'req-3', 'req-4', 'req-5']);
      s.logs.record(entry(6));
      await jest.advanceTimersByTimeAsync(1000);
      expect(s.store.batches).toEqual([5, 1]);
    });

    it('writes at once when a batch is full, and what is left on shutdown', async () => {
      const s = setup();
      for (let n = 0; n < API_LOG_BATCH_ROWS + 3; n += 1) s.logs.record(entry(n));
      await Promise.resolve();
      await s.logs.flush();
      expect(s.store.batches).toEqual([API_LOG_BATCH_ROWS, 3]);
      s.logs.record(entry(1));
      await s.logs.beforeApplicationShutdown();
      expect(s.store.batches).toEqual([API_LOG_BATCH_ROWS, 3, 1]);
    });

    it('a failed write loses only those log lines; later lines are written', async () => {
      const s = setup();
      s.logs.record(entry(1));
      s.store.failNext = true;
      await expect(s.logs.flush()).resolves.toBeUndefined();
      s.logs.record(entry(2));
      await s.logs.flush();
      expect(s.store.entries.map((e) => e.entry.requestId)).toEqual(['req-2']);
    });

    it('holds at most API_LOG_MAX_BUFFERED lines while the database does not take them', async () => {
      const s = setup();
      const stall = new Promise<void>(() => undefined);
      jest.spyOn(s.store, 'insertMany').mockReturnValueOnce(stall);
      s.logs.record(entry(0));
      void s.logs.flush(); // never finishes: the buffer fills behind it
      for (let n = 0; n < API_LOG_MAX_BUFFERED + 10; n += 1) s.logs.record(entry(n));
      expect((s.logs as unknown as { buffer: unknown[] }).buffer).toHaveLength(API_LOG_MAX_BUFFERED);
    });
  });
});
