import { ChildProcess, spawn } from 'node:child_process';
import Redis from 'ioredis';
import { freePort } from './api-process';
import { killProcess } from './worker-process';

/**
 * A redis-server of one test file's own, on a free loopback port, without persistence: for drills
 * that do to Redis what must not happen to the shared one (FLUSHALL would wipe the other jest
 * worker's queues). Started from `redis-server` on the PATH (.ci/run installs it).
 */
export class PrivateRedis {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    private readonly client: Redis,
  ) {}

  static async start(): Promise<PrivateRedis> {
    const port = await freePort();
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const url = `redis://127.0.0.1:${port}`;
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 100 });
    client.on('error', () => undefined);
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        if (client.status !== 'ready') await client.connect().catch(() => undefined);
        if ((await client.ping()) === 'PONG') break;
      } catch {
        if (Date.now() > deadline || child.exitCode !== null) {
          client.disconnect();
          await killProcess(child, 'SIGKILL');
          throw new Error(`redis-server did not answer on port ${port}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    return new PrivateRedis(child, url, client);
  }

  /** Everything in it gone, as an operator's FLUSHALL (or a Redis restarted without persistence) does. */
  async flushAll(): Promise<void> {
    await this.client.flushall();
  }

  async stop(): Promise<void> {
    this.client.disconnect();
    await killProcess(this.child, 'SIGKILL');
  }
}
