import { OUTBOX_LISTENER_APPLICATION_NAME, OutboxListener, outboxJobId } from '@outreach/platform';
import { waitFor } from '../support/tcp-proxy';
import { TEST_QUEUE, WorkerApp } from '../support/worker-app';

/**
 * The relay wakes on `NOTIFY outbox` (sent by Outbox.enqueue, delivered on commit): with the poll
 * set to a minute, a committed event still reaches its worker at once, and the listening
 * connection comes back by itself after Postgres drops it.
 */
describe('outbox relay woken by LISTEN/NOTIFY', () => {
  const savedPoll = process.env.OUTBOX_POLL_MS;
  let w: WorkerApp;

  beforeAll(async () => {
    process.env.OUTBOX_POLL_MS = '60000';
    try {
      w = await WorkerApp.create();
    } finally {
      if (savedPoll === undefined) delete process.env.OUTBOX_POLL_MS;
      else process.env.OUTBOX_POLL_MS = savedPoll;
    }
    await waitFor('the listener to connect', () => w.get(OutboxListener).listening, 5000);
  });
  afterAll(async () => {
    await w?.close();
  });

  const commitAndWait = async (tag: string) => {
    const [id] = await w.tx.run(() => w.outbox.enqueue({ queue: TEST_QUEUE, name: 'listen', payload: { tag } }));
    // The poll would come a minute later: only the NOTIFY can deliver it within these 3 s.
    await waitFor(`job ${tag} to be processed`, () => w.jobs.count(outboxJobId(id)) === 1, 3000);
  };

  it('a committed event is relayed without waiting for the poll', async () => {
    expect(w.config.outboxPollMs).toBe(60_000);
    await commitAndWait('first');
    await commitAndWait('second');
  });

  it('a rolled-back transaction notifies nothing and enqueues nothing', async () => {
    await expect(
      w.tx.run(async () => {
        await w.outbox.enqueue({ queue: TEST_QUEUE, name: 'listen', payload: { tag: 'rolled-back' } });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await new Promise((r) => setTimeout(r, 300));
    expect(w.jobs.seen.filter((j) => (j.data as { tag: string }).tag === 'rolled-back')).toHaveLength(0);
  });

  it('when Postgres ends the listening connection, the listener reconnects and wake-ups resume', async () => {
    const [{ n }]: Array<{ n: number }> = await w.dataSource.query(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
      [OUTBOX_LISTENER_APPLICATION_NAME],
    );
    expect(n).toBe(1);
    await waitFor('the listener to notice', () => !w.get(OutboxListener).listening, 3000);
    await waitFor('the listener to reconnect', () => w.get(OutboxListener).listening, 5000);
    await commitAndWait('after-reconnect');
  });
});
