// The live-call sweep's lease on the real Redis (decisions.md 16.44): one process at a time holds
// it; its holder renews it; another takes it once the holder stops renewing; without Redis every
// process sweeps (fail open).
import { RedisSweepLease } from '@outreach/engine';
import { AppConfig, RedisCommands } from '@outreach/platform';
import { TestApp } from '../support/test-app';

describe('sweep lease (Redis)', () => {
  let t: TestApp;
  let first: RedisCommands;
  let second: RedisCommands;

  beforeAll(async () => {
    t = await TestApp.create();
    first = new RedisCommands(t.config);
    second = new RedisCommands(t.config);
    // The request-path client refuses commands until it is connected (no offline queue): a refusal would read as "open".
    for (let i = 0; i < 100 && !(first.ready && second.ready); i++) await new Promise((r) => setTimeout(r, 20));
    expect(first.ready && second.ready).toBe(true);
  });
  afterAll(async () => {
    await first?.onApplicationShutdown();
    await second?.onApplicationShutdown();
    await t?.close();
  });

  it('held by one process at a time, renewed by its holder, taken by another once it lapses; open when Redis cannot answer', async () => {
    const name = `test-${Date.now()}`;
    const a = new RedisSweepLease(first, t.config);
    const b = new RedisSweepLease(second, t.config);

    expect(await a.hold(name, 300)).toBe(true);
    expect(await b.hold(name, 300)).toBe(false);
    await new Promise((r) => setTimeout(r, 200));
    expect(await a.hold(name, 300)).toBe(true); // renewed: 300 ms from now
    await new Promise((r) => setTimeout(r, 200));
    expect(await b.hold(name, 300)).toBe(false); // 400 ms after the first hold, still a's
    await new Promise((r) => setTimeout(r, 350));
    expect(await b.hold(name, 300)).toBe(true); // a stopped renewing
    expect(await a.hold(name, 300)).toBe(false);

    const unreachable = new RedisCommands({ ...t.config, redisUrl: 'redis://127.0.0.1:1' } as AppConfig);
    try {
      expect(await new RedisSweepLease(unreachable, t.config).hold(name, 300)).toBe(true);
    } finally {
      await unreachable.onApplicationShutdown();
    }
  });
});
