import Redis from 'ioredis';
import { redisOptionsFor } from '@outreach/platform';
import { sleep, TcpProxy, waitFor } from '../support/tcp-proxy';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SOCKET_TIMEOUT_MS = 400;

/**
 * ioredis 5.9's socketTimeout outlived its socket and destroyed the reconnected one
 * (socket-timeout-fix.ts, decisions.md 2.8). Real Redis; the black hole through a TcpProxy.
 */
describe('Redis socket timeout (ioredis 5.9 fault, mended)', () => {
  const clients: Redis[] = [];
  let proxy: TcpProxy | undefined;

  function client(url: string): { redis: Redis; connects: () => number; timeouts: () => number } {
    const redis = new Redis(redisOptionsFor(url, { socketTimeout: SOCKET_TIMEOUT_MS, lazyConnect: true, maxRetriesPerRequest: 1 }));
    clients.push(redis);
    let connects = 0;
    let timeouts = 0;
    redis.on('connect', () => connects++);
    redis.on('error', (error: Error) => {
      if (error.message.startsWith('Socket timeout')) timeouts++;
    });
    return { redis, connects: () => connects, timeouts: () => timeouts };
  }

  afterAll(async () => {
    for (const redis of clients) redis.disconnect();
    await proxy?.close();
  });

  it('a socket closed under a command takes its timer with it: the reconnected client keeps its new socket', async () => {
    const c = client(REDIS_URL);
    await c.redis.connect();
    expect(await c.redis.ping()).toBe('PONG');
    // A command whose answer never comes on this socket: the client is closed while it waits.
    const waiting = c.redis.blpop(`socket-timeout-probe-${process.pid}`, 0.2).catch((error: Error) => error.message);
    c.redis.disconnect();
    expect(await waiting).toBe('Connection is closed.');
    await c.redis.connect();
    expect(c.connects()).toBe(2);
    // Unmended, the first socket's timer fires here and destroys the second socket.
    await sleep(SOCKET_TIMEOUT_MS * 2.5);
    expect(c.timeouts()).toBe(0);
    expect(c.connects()).toBe(2);
    expect(c.redis.status).toBe('ready');
    expect(await c.redis.ping()).toBe('PONG');
  });

  it('a socket that goes silent is still dropped after the timeout, and the client comes back', async () => {
    proxy = await TcpProxy.forUrl(REDIS_URL);
    const c = client(proxy.rewrite(REDIS_URL));
    await c.redis.connect();
    expect(await c.redis.ping()).toBe('PONG');
    await proxy.setMode('blackhole');
    const started = Date.now();
    const lost = c.redis.ping().catch((error: Error) => error.message);
    await waitFor('the silent socket to be dropped', () => c.timeouts() === 1, 5_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(SOCKET_TIMEOUT_MS - 50);
    expect(Date.now() - started).toBeLessThan(SOCKET_TIMEOUT_MS * 4);
    await proxy.setMode('pass');
    // The command sent into the silence is not lost either: it is sent again on the new socket.
    expect(await lost).toBe('PONG');
    await waitFor('the client to come back', async () => c.redis.status === 'ready' && (await c.redis.ping()) === 'PONG', 10_000);
    expect(c.connects()).toBeGreaterThanOrEqual(2);
  });
});
