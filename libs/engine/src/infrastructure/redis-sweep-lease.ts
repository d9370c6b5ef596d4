import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig, RedisCommands } from '@outreach/platform';
import { SweepLease } from '../application/engine.ports';

/** Take the key when free, renew it when it is ours; answers 1 when held. */
const HOLD = `local v = redis.call('GET', KEYS[1])
if v == false or v == ARGV[1] then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;

/** SweepLease on `<prefix>:sweep:<name>`, valued with this process's token; fails open (decisions.md 16.44). */
@Injectable()
export class RedisSweepLease extends SweepLease {
  private readonly logger = new Logger('RedisSweepLease');
  private readonly token = randomUUID();
  private lastErrorLog = 0;

  constructor(
    private readonly redis: RedisCommands,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async hold(name: string, ms: number): Promise<boolean> {
    try {
      return (await this.redis.client.eval(HOLD, 1, `${this.config.redisPrefix}:sweep:${name}`, this.token, String(ms))) === 1;
    } catch (error) {
      const now = Date.now();
      if (now - this.lastErrorLog > 10_000) {
        this.lastErrorLog = now;
        this.logger.warn(`sweep ${name}: lease not readable (${(error as Error).message}); sweeping anyway`);
      }
      return true;
    }
  }
}
