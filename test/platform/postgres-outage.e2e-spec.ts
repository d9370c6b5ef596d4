import { isDatabaseUnavailable, postgresOptions } from '@outreach/platform';
import { ProxyMode, TcpProxy, timed, waitFor } from '../support/tcp-proxy';
import { bearer, prepareTestDatabase, Seeded, TestApp } from '../support/test-app';

/**
 * Issue 2: with Postgres unreachable the API answers 503 database_unavailable + Retry-After
 * within a second, never hangs, and recovers by itself. The API's DATABASE_URL points at a
 * TcpProxy; the real Postgres is never touched.
 */
describe('Postgres outage (fault drill)', () => {
  const realUrl = process.env.DATABASE_URL as string;
  let proxy: TcpProxy;
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    await prepareTestDatabase(); // migrations straight on the real server
    proxy = await TcpProxy.forUrl(realUrl);
    process.env.DATABASE_URL = proxy.rewrite(realUrl);
    try {
      t = await TestApp.create();
    } finally {
      process.env.DATABASE_URL = realUrl;
    }
    await t.reset();
    ws = await t.seed();
  });

  afterAll(async () => {
    await proxy?.setMode('pass');
    await t?.close();
    await proxy?.close();
  });

  afterEach(async () => {
    await proxy.setMode('pass');
  });

  const getWorkspace = () => timed(() => t.http.get('/v1/workspace').set(bearer(ws.key)));

  const expectUnavailable = async () => {
    const { value: res, ms } = await getWorkspace();
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 503, error: 'database_unavailable' });
    expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(typeof res.body.requestId).toBe('string');
    expect(JSON.stringify(res.body)).not.toMatch(/ECONN|timeout|at .*\.js/i); // no internals leak
    expect(ms).toBeLessThan(1000);
  };

  /** Once the proxy passes again, the same request answers 200 without restarting the app. */
  const expectRecovery = async () => {
    const statuses: number[] = [];
    await waitFor(
      'the API to answer 200 again',
      async () => {
        const { value: res, ms } = await getWorkspace();
        expect(ms).toBeLessThan(1000); // even while recovering, nothing hangs
        statuses.push(res.status);
        if (res.status !== 200) expect(res.body.error).toBe('database_unavailable');
        return res.status === 200;
      },
      8000,
      20,
    );
    for (let i = 0; i < 3; i++) {
      const { value: res } = await getWorkspace();
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(ws.workspaceId);
    }
    return statuses;
  };

  it('uses a 500 ms connect timeout and a 700 ms query timeout that pg really receives', async () => {
    expect(t.config.dbConnectTimeoutMs).toBe(500);
    expect(t.config.dbQueryTimeoutMs).toBe(700);
    const options = postgresOptions(t.config) as { connectTimeoutMS?: number; extra?: Record<string, unknown> };
    expect(options.connectTimeoutMS).toBe(500);
    expect(options.extra?.query_timeout).toBe(700);
    // What TypeORM handed to node-postgres: the live pool's options.
    const pool = (t.dataSource.driver as unknown as { master: { options: Record<string, unknown> } }).master;
    expect(pool.options).toMatchObject({ connectionTimeoutMillis: 500, query_timeout: 700 });
  });

  it('a query slower than the timeout fails as database_unavailable in ~0.7 s and leaves the pool healthy', async () => {
    const slow = await timed(() => t.dataSource.query('SELECT pg_sleep(3)').then(() => null, (e: unknown) => e));
    expect(isDatabaseUnavailable(slow.value)).toBe(true);
    expect(slow.ms).toBeGreaterThan(600);
    expect(slow.ms).toBeLessThan(1500);
    // The next query does not queue behind the abandoned one on a reused connection.
    const next = await timed(() => t.dataSource.query('SELECT 1 AS one'));
    expect(next.value).toEqual([{ one: 1 }]);
    expect(next.ms).toBeLessThan(300);
  });

  it.each<ProxyMode>(['refuse', 'blackhole'])(
    '%s: 503 database_unavailable with Retry-After in under 1 s, health says so, and it recovers by itself',
    async (mode) => {
      await getWorkspace(); // the pool holds an established connection
      await proxy.setMode(mode);

      for (let i = 0; i < 3; i++) await expectUnavailable();

      // Concurrent requests: none hangs.
      const parallel = await Promise.all(Array.from({ length: 5 }, () => getWorkspace()));
      for (const { value: res, ms } of parallel) {
        expect({ status: res.status, error: res.body.error }).toEqual({ status: 503, error: 'database_unavailable' });
        expect(ms).toBeLessThan(1000);
      }

      const ready = await timed(() => t.http.get('/health/ready'));
      expect(ready.value.status).toBe(503);
      expect(ready.value.body.checks.postgres.status).toBe('down');
      expect(ready.value.body.checks.redis.status).toBe('up');
      expect(ready.ms).toBeLessThan(1100);
      const live = await timed(() => t.http.get('/health/live'));
      expect(live.value.status).toBe(200);
      expect(live.ms).toBeLessThan(200);

      await proxy.setMode('pass');
      await expectRecovery();
      expect((await t.http.get('/health/ready')).status).toBe(200);
    },
    20_000,
  );

  it('a black hole that swallows the pooled connections for good: they are discarded, not reused', async () => {
    // Several connections in the pool, then all of them swallowed; new connections work again.
    await Promise.all(Array.from({ length: 4 }, () => getWorkspace()));
    await proxy.setMode('blackhole');
    await proxy.setMode('pass');
    const statuses = await expectRecovery();
    // Each swallowed connection costs at most one 503 (its query times out and it is dropped).
    expect(statuses.filter((s) => s !== 200).length).toBeLessThanOrEqual(t.config.dbPoolSize);
  }, 20_000);
});
