import { isDatabaseUnavailable, postgresOptions } from '@outreach/platform';
import { sandboxNumber } from '../engine/engine-harness';
import { pushLead, runningApiCampaign } from '../results/results-helpers';
import { extraOccurrences, reportDrill } from '../support/drill';
import { ProxyMode, sleep, TcpProxy, timed, waitFor } from '../support/tcp-proxy';
import { closeProxiedApp, testAppBehindProxy } from '../support/proxied-app';
import { bearer, Seeded, TestApp } from '../support/test-app';

/**
 * Issue 2: with Postgres unreachable the API answers 503 database_unavailable + Retry-After
 * within a second, never hangs, and recovers by itself. The API's DATABASE_URL points at a
 * TcpProxy; the real Postgres is never touched.
 */
describe('Postgres outage (fault drill)', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    ({ proxy, t } = await testAppBehindProxy('DATABASE_URL'));
    ws = await t.seed();
  });

  afterAll(() => closeProxiedApp({ proxy, t }));

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

  it('lead pushes across an outage: every acknowledged lead is stored once, and client retries never duplicate', async () => {
    const pusher = await t.seed({ features: ['api_results'] });
    const campaign = await runningApiCampaign(t, pusher.key, pusher.workspaceId);
    const LEADS = 30;
    const answers = new Map<string, Array<{ status: number; id?: string }>>();

    // An integrator's client: it retries a 503 with the same idempotency key until it has an answer.
    // Never a hang: a push that meets the black hole waits at most for a pooled connection
    // (DB_CONNECT_TIMEOUT_MS) and then one query timeout (DB_QUERY_TIMEOUT_MS) before its 503
    // (decisions.md 2.2); 30 clients against a pool of 10 reach that sum (measured up to ~1,020 ms
    // in full-suite runs, on the original code too; 1,543 ms once in CI with the contract and
    // browser tests beside it), a hang would take many seconds: 1 s of slack for a busy machine.
    const budgetMs = t.config.dbConnectTimeoutMs + t.config.dbQueryTimeoutMs + 1000;
    const client = async (i: number) => {
      await sleep(i * 70);
      const key = `pg-drill-${i}`;
      const seen: Array<{ status: number; id?: string }> = [];
      answers.set(key, seen);
      for (let attempt = 0; attempt < 60; attempt++) {
        const { value: res, ms } = await timed(() => pushLead(t, pusher.key, campaign.id, { idempotencyKey: key, phone: sandboxNumber(i, 5) }));
        expect(ms).toBeLessThan(budgetMs); // never a hang, even with the connections swallowed
        seen.push({ status: res.status, id: res.body.id });
        if (res.status === 200 || res.status === 201) return;
        expect({ status: res.status, code: res.body.code ?? res.body.error }).toEqual({ status: 503, code: 'database_unavailable' });
        await sleep(200);
      }
    };
    // The outage, while the 30 clients push over ~2 s: refused, back, swallowed, back.
    const outage = async () => {
      await sleep(150);
      await proxy.setMode('refuse');
      await sleep(700);
      await proxy.setMode('pass');
      await sleep(300);
      await proxy.setMode('blackhole');
      await sleep(700);
      await proxy.setMode('pass');
    };
    await Promise.all([outage(), ...Array.from({ length: LEADS }, (_, i) => client(i))]);

    const all = [...answers.values()];
    expect(all.flat().some((a) => a.status === 503)).toBe(true); // the outage was felt
    // Each key's acknowledgements (a 201, or a 200 replay) all name the same lead.
    const acknowledged = new Map<string, string>();
    for (const [key, seen] of answers) {
      const ids = new Set(seen.filter((a) => a.status < 300).map((a) => a.id));
      expect({ key, ids: ids.size }).toEqual({ key, ids: 1 });
      acknowledged.set(key, [...ids][0]!);
    }
    const stored: Array<{ id: string; phone: string }> = await t.dataSource.query(
      `SELECT id, phone FROM campaign_contacts WHERE campaign_id = $1`,
      [campaign.id],
    );
    const storedIds = new Set(stored.map((r) => r.id));
    const delivered = [...acknowledged.values()].filter((id) => storedIds.has(id)).length;
    const count = reportDrill('postgres-down-during-lead-pushes', {
      accepted: acknowledged.size,
      delivered,
      lost: acknowledged.size - delivered,
      duplicated: extraOccurrences(stored.map((r) => r.phone)) + (stored.length - delivered),
    });
    expect(count).toEqual({ accepted: LEADS, delivered: LEADS, lost: 0, duplicated: 0 });
  }, 60_000);
});
