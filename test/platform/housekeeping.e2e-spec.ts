import { randomUUID } from 'node:crypto';
import { PlatformHousekeeping } from '@outreach/platform';
import { TEST_QUEUE, WorkerApp } from '../support/worker-app';

/**
 * The worker's platform housekeeping: expired Idempotency-Key records and dispatched outbox rows
 * past their 7 days are deleted; everything else stays.
 */
describe('platform housekeeping (worker)', () => {
  let w: WorkerApp;

  beforeAll(async () => {
    w = await WorkerApp.create();
  });
  afterAll(async () => {
    await w?.close();
  });

  it('purges expired idempotency keys and week-old dispatched outbox rows, and nothing else', async () => {
    const ws = randomUUID();
    const key = (name: string, expiresSql: string) =>
      w.dataSource.query(
        `INSERT INTO idempotency_keys (workspace_id, route, key, request_hash, state, owner_token, locked_until, expires_at, created_at)
         VALUES ($1, 'POST /calls/test', $2, repeat('a', 64), 'completed', gen_random_uuid(), now(), ${expiresSql}, now() - interval '1 day')`,
        [ws, name],
      );
    await key('expired', `now() - interval '1 minute'`);
    await key('live', `now() + interval '1 hour'`);

    const outbox = async (tag: string, createdSql: string, dispatchedSql: string) => {
      const [row]: Array<{ id: string }> = await w.dataSource.query(
        `INSERT INTO outbox (queue, name, payload, created_at, dispatched_at) VALUES ($1, 'housekeeping', $2::jsonb, ${createdSql}, ${dispatchedSql}) RETURNING id`,
        [TEST_QUEUE, JSON.stringify({ tag })],
      );
      return row.id;
    };
    const old = await outbox('old', `now() - interval '9 days'`, `now() - interval '8 days'`);
    const recent = await outbox('recent', `now() - interval '7 days'`, `now() - interval '6 days'`);
    const stuck = await outbox('never-dispatched', `now() - interval '30 days'`, 'NULL');

    const report = await w.get(PlatformHousekeeping).run();
    expect(report.idempotencyKeysPurged).toBeGreaterThanOrEqual(1);
    expect(report.outboxRowsPurged).toBeGreaterThanOrEqual(1);

    const keys: Array<{ key: string }> = await w.dataSource.query(`SELECT key FROM idempotency_keys WHERE workspace_id = $1 ORDER BY key`, [ws]);
    expect(keys.map((k) => k.key)).toEqual(['live']);
    const rows: Array<{ id: string }> = await w.dataSource.query(`SELECT id FROM outbox WHERE id = ANY($1::uuid[])`, [[old, recent, stuck]]);
    expect(rows.map((r) => r.id).sort()).toEqual([recent, stuck].sort());

    // A second pass finds nothing more of these.
    await w.get(PlatformHousekeeping).run();
    expect(await w.dataSource.query(`SELECT key FROM idempotency_keys WHERE workspace_id = $1`, [ws])).toHaveLength(1);
  });
});
