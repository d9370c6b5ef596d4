import {
  Clock,
  FixedClock,
  IdempotencyStore,
  loadConfig,
  PostgresIdempotencyStore,
  postgresOptions,
} from '@outreach/platform';
import { DataSource } from 'typeorm';
import { ProbeExecutions, ProbeModule } from '../support/probe.module';
import { OUTAGE_CONNECT_TIMEOUT_MS } from '../support/proxied-app';
import { TcpProxy, timed, waitFor } from '../support/tcp-proxy';
import { bearer, prepareTestDatabase, Seeded, TestApp } from '../support/test-app';

type Res = { status: number; body: Record<string, unknown>; headers: Record<string, string> };

const expectError = (res: Res, status: number, code: string) => {
  expect({ status: res.status, error: res.body.error }).toEqual({ status, error: code });
  expect(typeof res.body.requestId).toBe('string');
};

/** decisions.md 21.1: Idempotency-Key on billed POST routes (probe routes carry @Idempotent()). */
describe('Idempotency-Key (decisions.md 21.1)', () => {
  const start = new Date('2026-11-21T10:00:00Z');
  const clock = new FixedClock(start);
  let t: TestApp;
  let ws: Seeded;
  let executions: ProbeExecutions;

  beforeAll(async () => {
    t = await TestApp.create({ imports: [ProbeModule], configure: (b) => b.overrideProvider(Clock).useValue(clock) });
    executions = t.get(ProbeExecutions);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    clock.set(start);
    executions.reset();
    await t.reset();
    ws = await t.seed();
  });

  const charge = (key: string | null, body: object = { item: 'coffee' }, account = 'acc-1', apiKey = ws.key) => {
    const req = t.http.post(`/probe/charges/${account}`).set(bearer(apiKey));
    if (key !== null) req.set('Idempotency-Key', key);
    return req.send(body);
  };
  const storedKeys = async () => Number((await t.dataSource.query(`SELECT count(*) AS n FROM idempotency_keys`))[0].n);

  it('400 idempotency_key_required without the header (or with an empty one); nothing runs', async () => {
    expectError(await charge(null), 400, 'idempotency_key_required');
    expectError(await charge(''), 400, 'idempotency_key_required');
    expect(executions.count).toBe(0);
    expect(await storedKeys()).toBe(0);
  });

  it('400 idempotency_key_invalid over 200 characters or outside printable ASCII; 200 are fine', async () => {
    expectError(await charge('k'.repeat(201)), 400, 'idempotency_key_invalid');
    expectError(await charge('clé-1'), 400, 'idempotency_key_invalid');
    expectError(await charge('tab\there'), 400, 'idempotency_key_invalid');
    expect(executions.count).toBe(0);
    expect(await storedKeys()).toBe(0);
    const ok = await charge('k'.repeat(200));
    expect(ok.status).toBe(201);
    expect(executions.count).toBe(1);
  });

  it('the key is checked before the body is validated', async () => {
    expectError(await charge(null, { item: '' }), 400, 'idempotency_key_required');
    expectError(await charge('key-v', { nope: 1 }), 400, 'invalid_body');
  });

  it('runs once; the same request again replays the stored status and body with Idempotent-Replayed: true', async () => {
    const first = await charge('order-1', { item: 'coffee', amount: 3 });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(first.body).toEqual({ chargeNo: 1, account: 'acc-1', item: 'coffee', amount: 3, workspaceId: ws.workspaceId });

    // Same members in another order: the same request.
    const again = await charge('order-1', { amount: 3, item: 'coffee' });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(again.body).toEqual(first.body);
    expect(executions.count).toBe(1);

    // A new key is a new request.
    const other = await charge('order-2', { item: 'coffee', amount: 3 });
    expect(other.status).toBe(201);
    expect(other.body.chargeNo).toBe(2);
  });

  it('422 idempotency_key_reused for the same key with another body or path; nothing runs', async () => {
    await charge('order-1', { item: 'coffee' }).expect(201);
    expectError(await charge('order-1', { item: 'tea' }), 422, 'idempotency_key_reused');
    expectError(await charge('order-1', { item: 'coffee' }, 'acc-2'), 422, 'idempotency_key_reused');
    expect(executions.count).toBe(1);
    const replay = await charge('order-1', { item: 'coffee' });
    expect(replay.status).toBe(201);
    expect(replay.body.item).toBe('coffee');
  });

  it('409 idempotency_key_reused on a route that declares reusedStatus: 409 (POST /calls/test)', async () => {
    const call = (body: object) => t.http.post('/probe/test-call').set(bearer(ws.key)).set('Idempotency-Key', 'call-1').send(body);
    expect((await call({ item: 'a' })).status).toBe(201);
    expectError(await call({ item: 'b' }), 409, 'idempotency_key_reused');
    const replay = await call({ item: 'a' });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(executions.count).toBe(1);
  });

  it('keys are scoped per workspace and per route', async () => {
    const other = await t.seed();
    expect((await charge('shared', { item: 'x' })).body.chargeNo).toBe(1);
    const theirs = await charge('shared', { item: 'y' }, 'acc-1', other.key);
    expect(theirs.status).toBe(201);
    expect(theirs.body).toMatchObject({ chargeNo: 2, workspaceId: other.workspaceId });
    const route2 = await t.http.post('/probe/test-call').set(bearer(ws.key)).set('Idempotency-Key', 'shared').send({ item: 'z' });
    expect(route2.status).toBe(201);
    expect(executions.count).toBe(3);
  });

  it('50 concurrent requests with one key: exactly one runs, the others get 409 idempotency_in_progress + Retry-After: 1', async () => {
    executions.hold();
    let settled = 0;
    const all = Array.from({ length: 50 }, () =>
      charge('burst', { item: 'coffee' }).then((res) => {
        settled++;
        return res;
      }),
    );
    // While the one that runs is held at the gate, every other request is answered.
    await waitFor('49 requests to be answered while one runs', () => settled === 49, 20_000, 20);
    expect(executions.count).toBe(1);
    executions.release();
    const results = await Promise.all(all);

    const created = results.filter((r) => r.status === 201);
    const busy = results.filter((r) => r.status === 409);
    expect(created).toHaveLength(1);
    expect(busy).toHaveLength(49);
    for (const r of busy) {
      expectError(r, 409, 'idempotency_in_progress');
      expect(r.headers['retry-after']).toBe('1');
    }
    expect(executions.count).toBe(1);

    const replay = await charge('burst', { item: 'coffee' });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(created[0].body);
    expect(executions.count).toBe(1);
  });

  it('50 concurrent requests with one key, not held: still exactly one execution (the rest are 409 or replays)', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => charge('race', { item: 'tea' })));
    expect(executions.count).toBe(1);
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const bodies = results.filter((r) => r.status === 201).map((r) => r.body.chargeNo);
    expect(new Set(bodies)).toEqual(new Set([1]));
    for (const r of results.filter((x) => x.status === 409)) expectError(r, 409, 'idempotency_in_progress');
  });

  it('a 4xx answer is stored and replayed; a 5xx releases the key so the retry runs again', async () => {
    const bad = await charge('k-bad', { item: 'x', outcome: 'bad' });
    expectError(bad, 400, 'invalid_request');
    const badAgain = await charge('k-bad', { item: 'x', outcome: 'bad' });
    expectError(badAgain, 400, 'invalid_request');
    expect(badAgain.headers['idempotent-replayed']).toBe('true');
    expect(badAgain.body).toEqual(bad.body);
    expect(executions.count).toBe(1);

    const boom = await charge('k-boom', { item: 'x', outcome: 'boom' });
    expectError(boom, 500, 'internal_error');
    expect(JSON.stringify(boom.body)).not.toContain('probe crashed');
    const rows = await t.dataSource.query(`SELECT * FROM idempotency_keys WHERE key = 'k-boom'`);
    expect(rows).toHaveLength(0);
    const boomAgain = await charge('k-boom', { item: 'x', outcome: 'boom' });
    expectError(boomAgain, 500, 'internal_error');
    expect(boomAgain.headers['idempotent-replayed']).toBeUndefined();
    expect(executions.count).toBe(3);
  });

  it('keys are kept 24 h: afterwards the key may be used again, even for another request', async () => {
    await charge('daily', { item: 'coffee' }).expect(201);
    clock.advance(24 * 3600_000 - 1000);
    expectError(await charge('daily', { item: 'tea' }), 422, 'idempotency_key_reused');
    expect((await charge('daily', { item: 'coffee' })).headers['idempotent-replayed']).toBe('true');
    clock.advance(1000);
    const fresh = await charge('daily', { item: 'tea' });
    expect(fresh.status).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(fresh.body).toMatchObject({ chargeNo: 2, item: 'tea' });
    expect(await t.get(IdempotencyStore).purgeExpired(new Date(clock.now().getTime() + 25 * 3600_000))).toBe(1);
  });

  it('a request left "in progress" (its process died) blocks retries only until the 60 s lock times out', async () => {
    executions.hold(1);
    const stuck = charge('crash', { item: 'coffee' }).then((r) => r); // supertest sends on then()
    await waitFor('the first request to run', () => executions.count === 1);
    expectError(await charge('crash', { item: 'coffee' }), 409, 'idempotency_in_progress');
    clock.advance(59_000);
    expectError(await charge('crash', { item: 'coffee' }), 409, 'idempotency_in_progress');
    // Another request never takes a stale lock over.
    expectError(await charge('crash', { item: 'tea' }), 422, 'idempotency_key_reused');
    clock.advance(1_000);
    const retry = await charge('crash', { item: 'coffee' });
    expect(retry.status).toBe(201);
    expect(retry.body.chargeNo).toBe(2);
    // The stale one finishes too, but the answer stored is the retry's.
    executions.release();
    expect((await stuck).status).toBe(201);
    const replay = await charge('crash', { item: 'coffee' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.chargeNo).toBe(2);
  });

  it('documents the header in OpenAPI', async () => {
    const doc = (await t.http.get('/docs-json')).body as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; required?: boolean }> }>>;
    };
    const params = doc.paths['/probe/charges/{account}'].post.parameters ?? [];
    expect(params).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: true }));
  });
});

/** The store behind the keys is unreachable: 503 idempotency_unavailable, nothing done. */
describe('Idempotency-Key store outage (fault drill)', () => {
  let proxy: TcpProxy;
  let storeDb: DataSource;
  let t: TestApp;
  let ws: Seeded;
  let executions: ProbeExecutions;

  beforeAll(async () => {
    await prepareTestDatabase();
    const realUrl = process.env.DATABASE_URL as string;
    proxy = await TcpProxy.forUrl(realUrl);
    // Only the idempotency store goes through the proxy: authentication still reaches Postgres,
    // so the request gets as far as the key check.
    const config = loadConfig({ ...process.env, DATABASE_URL: proxy.rewrite(realUrl), DB_CONNECT_TIMEOUT_MS: OUTAGE_CONNECT_TIMEOUT_MS });
    storeDb = new DataSource({ ...postgresOptions(config, { poolSize: 2, applicationName: 'idempotency-drill' }) });
    await storeDb.initialize();
    t = await TestApp.create({
      imports: [ProbeModule],
      configure: (b) => b.overrideProvider(IdempotencyStore).useFactory({ factory: (clock: Clock) => new PostgresIdempotencyStore(storeDb, clock), inject: [Clock] }),
    });
    executions = t.get(ProbeExecutions);
    await t.reset();
    ws = await t.seed();
  });

  afterAll(async () => {
    await proxy?.setMode('pass');
    await t?.close();
    await storeDb?.destroy();
    await proxy?.close();
  });

  const charge = (key: string) =>
    t.http.post('/probe/charges/acc-1').set(bearer(ws.key)).set('Idempotency-Key', key).send({ item: 'coffee' });

  it.each(['refuse', 'blackhole'] as const)('503 idempotency_unavailable + Retry-After within a second (%s); the handler never runs', async (mode) => {
    await proxy.setMode(mode);
    const { value: res, ms } = await timed(() => charge(`outage-${mode}`));
    expectError(res as unknown as Res, 503, 'idempotency_unavailable');
    expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(JSON.stringify(res.body)).not.toMatch(/ECONN|timeout|at .*\.js/i);
    expect(ms).toBeLessThan(1500);
    expect(executions.count).toBe(0);

    // Back up: the same key runs, once.
    await proxy.setMode('pass');
    const ok = await waitFor(
      'the store to answer again',
      async () => {
        const r = await charge(`outage-${mode}`);
        return r.status === 201 ? r : null;
      },
      8000,
      50,
    );
    expect(ok?.body.chargeNo).toBe(1);
    expect(executions.count).toBe(1);
    executions.reset();
  });
});
