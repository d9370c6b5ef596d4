import { Clock, FixedClock, RedisCommands } from '@outreach/platform';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { bearer, Seeded, TestApp } from '../support/test-app';

/**
 * Rate limits per API key in Redis (decisions.md 3.1, 3.2, 3.4): a sliding window of RATE_LIMIT_PER_MINUTE
 * (here 5) or the workspace's own limit; RateLimit-Policy / RateLimit headers; 429 rate_limited
 * with Retry-After. Windows follow the Clock port, so the test places requests in time.
 */
describe('rate limiting per API key', () => {
  const windowStart = new Date('2026-11-21T10:00:00Z'); // a minute boundary: window starts here
  const clock = new FixedClock();
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    const saved = process.env.RATE_LIMIT_PER_MINUTE;
    process.env.RATE_LIMIT_PER_MINUTE = '5';
    try {
      t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock) });
    } finally {
      if (saved === undefined) delete process.env.RATE_LIMIT_PER_MINUTE;
      else process.env.RATE_LIMIT_PER_MINUTE = saved;
    }
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.reset();
    clock.set(new Date(windowStart.getTime() + 1000)); // 1 s into the window: 59 s left
    ws = await t.seed();
  });

  const get = (key: string) => t.http.get('/v1/workspace').set(bearer(key));

  const expectLimited = (res: { status: number; body: Record<string, unknown>; headers: Record<string, string> }, retryAfter: number) => {
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 429, error: 'rate_limited' });
    expect(typeof res.body.requestId).toBe('string');
    expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/); // whole seconds, at least 1
    expect(Number(res.headers['retry-after'])).toBe(retryAfter);
    expect(res.headers['ratelimit']).toBe(`"default";r=0;t=${retryAfter}`);
  };

  /** What Redis counted for a key (all windows). */
  const counted = async (keyId: string): Promise<number> => {
    // Its own connection: the app's request-path client gives a command 50 ms, which a KEYS on a
    // loaded CI machine exceeded ("Command timed out").
    const redis = t.get(RedisCommands).client.duplicate({ commandTimeout: 5_000, enableOfflineQueue: true });
    try {
      const keys = await redis.keys(`${t.config.redisPrefix}:rl:key:${keyId}:*`);
      const values = keys.length ? await redis.mget(...keys) : [];
      return values.reduce((sum, v) => sum + Number(v ?? 0), 0);
    } finally {
      redis.disconnect();
    }
  };

  it('allowed requests carry RateLimit-Policy and RateLimit; the 6th answers 429 rate_limited with Retry-After', async () => {
    for (let i = 1; i <= 5; i++) {
      const res = await get(ws.key);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"default";q=5;w=60');
      expect(res.headers['ratelimit']).toBe(`"default";r=${5 - i};t=59`);
    }
    const sixth = await get(ws.key);
    expectLimited(sixth, 59);
    expect(sixth.headers['ratelimit-policy']).toBe('"default";q=5;w=60');

    // Later in the same window the wait shrinks accordingly.
    clock.advance(40_000);
    expectLimited(await get(ws.key), 19);
  });

  it('limits are per key: another key of the same workspace and another workspace are not affected', async () => {
    for (let i = 0; i < 5; i++) expect((await get(ws.key)).status).toBe(200);
    expectLimited(await get(ws.key), 59);

    const sameWorkspace = await t.addKey(ws.workspaceId);
    const res = await get(sameWorkspace.key);
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit']).toBe('"default";r=4;t=59');

    const other = await t.seed();
    expect((await get(other.key)).headers['ratelimit']).toBe('"default";r=4;t=59');

    expectLimited(await get(ws.key), 59);
  });

  it('refused requests are not counted', async () => {
    for (let i = 0; i < 5; i++) expect((await get(ws.key)).status).toBe(200);
    for (let i = 0; i < 5; i++) expectLimited(await get(ws.key), 59);
    expect(await counted(ws.keyId)).toBe(5);

    // Halfway through the next window the previous one weighs half: floor(5 × 0.5) = 2 used,
    // so 3 more fit. Had the 5 refusals counted, floor(10 × 0.5) = 5 would leave none.
    clock.set(new Date(windowStart.getTime() + 90_000));
    for (let remaining = 2; remaining >= 0; remaining--) {
      const res = await get(ws.key);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit']).toBe(`"default";r=${remaining};t=30`);
    }
    expectLimited(await get(ws.key), 30);
    expect(await counted(ws.keyId)).toBe(8);
  });

  it("a workspace's own limit overrides the default, and clearing it restores the default", async () => {
    const admin = t.get(WorkspaceAdministration);
    await admin.update(ws.workspaceId, { rateLimitPerMinute: 2 });
    for (let i = 1; i <= 2; i++) {
      const res = await get(ws.key);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"default";q=2;w=60');
      expect(res.headers['ratelimit']).toBe(`"default";r=${2 - i};t=59`);
    }
    expectLimited(await get(ws.key), 59);

    const generous = await t.seed();
    await admin.update(generous.workspaceId, { rateLimitPerMinute: 8 });
    for (let i = 0; i < 8; i++) {
      const res = await get(generous.key);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"default";q=8;w=60');
    }
    expectLimited(await get(generous.key), 59);

    await admin.update(ws.workspaceId, { rateLimitPerMinute: null });
    const back = await get(ws.key);
    expect(back.status).toBe(200);
    expect(back.headers['ratelimit-policy']).toBe('"default";q=5;w=60');
    expect(back.headers['ratelimit']).toBe('"default";r=2;t=59'); // its 2 earlier requests still count
  });
});
