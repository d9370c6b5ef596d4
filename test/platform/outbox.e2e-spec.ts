import { bullPrefix, loadConfig, outboxJobId, redisOptions } from '@outreach/platform';
import { Queue } from 'bullmq';
import { extraOccurrences, reportDrill } from '../support/drill';
import { sleep, TcpProxy, waitFor } from '../support/tcp-proxy';
import { TEST_QUEUE, WorkerApp } from '../support/worker-app';

interface OutboxRow {
  id: string;
  dispatched_at: Date | null;
  attempts: number;
  last_error: string | null;
}

/**
 * Issue 2: "an event committed while Redis is stopped is delivered once Redis is back, exactly
 * once". The worker's Redis goes through a TcpProxy; the real Redis is never touched.
 */
describe('outbox relay through a Redis outage (fault drill)', () => {
  const realConfig = loadConfig();
  let proxy: TcpProxy;
  let w: WorkerApp;
  let inspect: Queue; // straight to the real Redis, to look at what was enqueued
  const savedRedisUrl = process.env.REDIS_URL;

  beforeAll(async () => {
    proxy = await TcpProxy.forUrl(realConfig.redisUrl);
    inspect = new Queue(TEST_QUEUE, { prefix: bullPrefix(realConfig), connection: redisOptions(realConfig) });
    await inspect.obliterate({ force: true });
    process.env.REDIS_URL = proxy.rewrite(realConfig.redisUrl);
    try {
      w = await WorkerApp.create();
    } finally {
      process.env.REDIS_URL = savedRedisUrl;
    }
  });

  afterAll(async () => {
    // BullMQ's Worker.close() waits for Redis, and hangs if called while its connections are
    // still reconnecting: reset any swallowed connection, then wait for one job's round trip.
    if (proxy && w) {
      await proxy.setMode('refuse');
      await proxy.setMode('pass');
      const [canary] = await commit(1, 'canary');
      await waitFor('the worker to be connected again', () => w.jobs.count(outboxJobId(canary)) === 1).catch(() => undefined);
    }
    await w?.close();
    await proxy?.close();
    await inspect?.obliterate({ force: true }).catch(() => undefined);
    await inspect?.close();
  });

  beforeEach(async () => {
    await proxy.setMode('pass');
    await w.dataSource.query('DELETE FROM outbox');
    w.jobs.clear();
  });

  const rows = (): Promise<OutboxRow[]> =>
    w.dataSource.query('SELECT id, dispatched_at, attempts, last_error FROM outbox ORDER BY created_at, id');

  /** The drill's count: committed events against the jobs the worker processed for them. */
  const expectNothingLostOrDuplicated = (drill: string, committed: string[]) => {
    const jobIds = new Set(committed.map(outboxJobId));
    const processed = w.jobs.seen.map((j) => j.id).filter((id) => jobIds.has(id));
    const delivered = new Set(processed).size;
    const count = reportDrill(drill, {
      accepted: committed.length,
      delivered,
      lost: committed.length - delivered,
      duplicated: extraOccurrences(processed),
    });
    expect(count).toEqual({ accepted: committed.length, delivered: committed.length, lost: 0, duplicated: 0 });
  };

  const attempts = (list: OutboxRow[]) => list.reduce((sum, r) => sum + r.attempts, 0);

  const commit = (count: number, tag: string) =>
    w.tx.run(() =>
      w.outbox.enqueue(
        ...Array.from({ length: count }, (_, i) => ({ queue: TEST_QUEUE, name: 'drill', payload: { tag, n: i } })),
      ),
    );

  it('an event committed while Redis is refused is delivered once Redis is back, exactly once', async () => {
    await proxy.setMode('refuse');

    const ids = await commit(3, 'during-outage');
    expect(ids).toHaveLength(3);

    // A rolled-back transaction enqueues nothing.
    await expect(
      w.tx.run(async () => {
        await w.outbox.enqueue({ queue: TEST_QUEUE, name: 'drill', payload: { tag: 'rolled-back' } });
        throw new Error('business rule failed after the enqueue');
      }),
    ).rejects.toThrow('business rule failed');

    // The relay keeps trying (and records why it failed) without getting stuck: attempts climb
    // tick after tick while nothing is dispatched.
    await waitFor('two failed relay ticks', async () => attempts(await rows()) >= 2, 8000);
    const during = await rows();
    expect(during.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(during.every((r) => r.dispatched_at === null)).toBe(true);
    expect(during.some((r) => r.last_error !== null)).toBe(true);
    expect(w.jobs.seen).toHaveLength(0);
    expect(await inspect.getJobCountByTypes('waiting', 'active', 'completed', 'delayed', 'failed')).toBe(0);

    await proxy.setMode('pass');

    await waitFor('the three jobs to be processed', () => w.jobs.seen.length >= 3, 10_000);
    await sleep(500); // ten more relay ticks (OUTBOX_POLL_MS=50): nothing may arrive twice
    const expected = ids.map(outboxJobId).sort();
    expect([...w.jobs.counts().keys()].sort()).toEqual(expected);
    expect([...w.jobs.counts().values()]).toEqual([1, 1, 1]);
    expect(w.jobs.seen.every((j) => (j.data as { tag: string }).tag === 'during-outage')).toBe(true);
    const after = await rows();
    expect(after).toHaveLength(3);
    expect(after.every((r) => r.dispatched_at !== null)).toBe(true);
    expect(await inspect.getJobCountByTypes('completed')).toBe(3);
    expectNothingLostOrDuplicated('outbox-across-redis-refused', ids);
  });

  it('a relay tick on dispatched rows adds nothing; a re-add of the same outbox id is de-duplicated by jobId', async () => {
    const [id] = await commit(1, 'once');
    await waitFor('the job to be processed', () => w.jobs.count(outboxJobId(id)) === 1);
    await waitFor('the row to be marked dispatched', async () => (await rows())[0]?.dispatched_at !== null);

    expect(await w.relay.tick()).toBe(0);

    // The crash window: the process died after the add and before marking the row. The relay adds
    // it again with the same jobId, and BullMQ keeps the first job.
    await w.producer.add(TEST_QUEUE, 'drill', { tag: 'once' }, outboxJobId(id));
    await w.dataSource.query('UPDATE outbox SET dispatched_at = NULL WHERE id = $1', [id]);
    await waitFor('the relay to mark the row again', async () => (await rows())[0]?.dispatched_at !== null);
    await sleep(300);

    expect(w.jobs.count(outboxJobId(id))).toBe(1);
    expect(w.jobs.seen.filter((j) => (j.data as { tag: string }).tag === 'once')).toHaveLength(1);
    expect(await inspect.getJob(outboxJobId(id))).toBeDefined();
  });

  it('a row Redis refuses on its own is set aside with a back-off; the rows around it go through', async () => {
    const [before] = await commit(1, 'poison-neighbour');
    // BullMQ refuses a custom jobId holding ':' whatever the state of Redis: a poison row.
    const [poison] = await w.tx.run(() => w.outbox.enqueue({ queue: TEST_QUEUE, name: 'drill', payload: { tag: 'poison' }, jobId: 'bad:id' }));
    const [after] = await commit(1, 'poison-neighbour');

    await waitFor('both neighbours processed', () => w.jobs.count(outboxJobId(before)) === 1 && w.jobs.count(outboxJobId(after)) === 1);
    await waitFor('the poison row to be set aside', async () => (await rows()).find((r) => r.id === poison)!.attempts >= 1);
    const [row]: Array<OutboxRow & { retry_at: Date | null; due: boolean }> = await w.dataSource.query(
      `SELECT id, dispatched_at, attempts, last_error, retry_at, retry_at <= now() AS due FROM outbox WHERE id = $1`,
      [poison],
    );
    expect(row.dispatched_at).toBeNull();
    expect(row.last_error).toMatch(/cannot contain/);
    expect(row.due).toBe(false); // waits for its retry_at
    expect(row.attempts).toBe(1);

    // Later ticks skip it until retry_at, and keep moving new rows.
    const [later] = await commit(1, 'poison-neighbour');
    await waitFor('a later row processed', () => w.jobs.count(outboxJobId(later)) === 1);
    expect((await rows()).find((r) => r.id === poison)!.attempts).toBe(1);
    expect(w.jobs.seen.filter((j) => (j.data as { tag: string }).tag === 'poison')).toHaveLength(0);
    expect(w.jobs.seen.filter((j) => (j.data as { tag: string }).tag === 'poison-neighbour')).toHaveLength(3);
  });

  it('a producer Queue that fails for good is replaced, and the relay goes on', async () => {
    // BullMQ can keep a Queue failing with Redis healthy (a connection cut just after its first
    // command leaves a rejected initialisation behind); a closed connection fails the same way.
    const dead = w.producer.queue(TEST_QUEUE);
    await sleep(1100); // past the floor that keeps a new Queue from being replaced at once
    await dead.disconnect();
    const ids = await commit(2, 'after-dead-queue');
    await waitFor('both jobs processed', () => ids.every((id) => w.jobs.count(outboxJobId(id)) === 1), 10_000);
    expect(w.producer.queue(TEST_QUEUE)).not.toBe(dead);
    expectNothingLostOrDuplicated('outbox-across-a-dead-producer-queue', ids);
  });

  it('a black-holed Redis neither hangs the relay nor loses or duplicates events', async () => {
    // Warm up, so the producer and the worker hold established connections; then swallow them.
    const [warm] = await commit(1, 'warm');
    await waitFor('the warm-up job', () => w.jobs.count(outboxJobId(warm)) === 1);
    await proxy.setMode('blackhole');

    const ids = await commit(2, 'black-hole');
    // Ticks keep completing (each add gives up after ENQUEUE_TIMEOUT_MS) instead of waiting on a
    // silent Redis forever, and nothing is dispatched.
    await waitFor('two failed relay ticks', async () => attempts(await rows()) >= 2, 10_000);
    const during = (await rows()).filter((r) => ids.includes(r.id));
    expect(during.every((r) => r.dispatched_at === null)).toBe(true);
    expect(w.jobs.seen.filter((j) => (j.data as { tag: string }).tag === 'black-hole')).toHaveLength(0);

    // The network heals but the swallowed connections stay dead: the producer notices the silence
    // (socket timeout), reconnects and the relay dispatches the rows by itself.
    await proxy.setMode('pass');
    await waitFor('the rows to be dispatched', async () => (await rows()).every((r) => r.dispatched_at !== null), 10_000);
    expect(await inspect.getJob(outboxJobId(ids[0]))).toBeDefined();

    // BullMQ's Worker does not notice a silent connection by itself (see the report): a reset of
    // the old connections, as a restarted Redis host would send, brings the consumer back.
    await proxy.setMode('refuse');
    await proxy.setMode('pass');
    await waitFor('the two jobs to be processed', () => ids.every((id) => w.jobs.count(outboxJobId(id)) >= 1), 12_000);
    await sleep(500);
    expect(ids.map((id) => w.jobs.count(outboxJobId(id)))).toEqual([1, 1]);
    expect(w.jobs.count(outboxJobId(warm))).toBe(1);
    expect((await rows()).every((r) => r.dispatched_at !== null)).toBe(true);
    expectNothingLostOrDuplicated('outbox-across-redis-blackholed', [warm, ...ids]);
  }, 30_000);
});
