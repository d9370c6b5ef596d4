import { Injectable } from '@nestjs/common';
import { AppConfig } from '@outreach/core';
import { RedisCommands } from '../redis/redis.module';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window has room again (for Retry-After) or resets. */
  resetSeconds: number;
  windowSeconds: number;
}

// Sliding window approximated by two fixed windows (the previous one weighted by how much of it
// still overlaps the sliding window). One round trip; refused requests are not counted.
const SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
local limit = tonumber(ARGV[1])
local weight = tonumber(ARGV[2])
local ttl = tonumber(ARGV[3])
local estimated = math.floor(previous * weight) + current
if estimated >= limit then
  return {0, estimated}
end
current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('EXPIRE', KEYS[1], ttl) end
return {1, estimated + 1}
`;

@Injectable()
export class RateLimiter {
  constructor(
    private readonly redis: RedisCommands,
    private readonly config: AppConfig,
  ) {}

  /**
   * Counts one request against `subject`. Returns null when Redis cannot answer in time: the
   * caller lets the request through (fail open) rather than failing a request that does not
   * need Redis.
   */
  async hit(subject: string, limit: number, nowMs = Date.now()): Promise<RateLimitDecision | null> {
    const windowSeconds = this.config.rateLimitWindowSeconds;
    const windowMs = windowSeconds * 1000;
    const windowIndex = Math.floor(nowMs / windowMs);
    const elapsed = nowMs - windowIndex * windowMs;
    const weight = (windowMs - elapsed) / windowMs;
    const base = `${this.config.redisPrefix}:rl:${subject}`;
    if (!this.redis.ready) return null;
    let result: [number, number];
    try {
      result = (await this.redis.client.eval(
        SCRIPT,
        2,
        `${base}:${windowIndex}`,
        `${base}:${windowIndex - 1}`,
        limit,
        weight.toFixed(6),
        windowSeconds * 2,
      )) as [number, number];
    } catch {
      return null;
    }
    const [allowed, used] = result;
    const untilWindowEnd = Math.max(1, Math.ceil((windowMs - elapsed) / 1000));
    return {
      allowed: allowed === 1,
      limit,
      remaining: Math.max(0, limit - used),
      resetSeconds: untilWindowEnd,
      windowSeconds,
    };
  }
}
