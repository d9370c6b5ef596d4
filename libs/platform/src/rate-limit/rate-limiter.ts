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
// still overlaps the sliding window). One round trip; refused requests are not counted. Sent as
// EVALSHA (ioredis defineCommand): the script body crosses the wire once per connection, not on
// every request (decisions.md 41.2).
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

const COMMAND = 'outreachRateLimit';
type RateLimitCommand = (current: string, previous: string, limit: number, weight: string, ttl: number) => Promise<[number, number]>;

@Injectable()
export class RateLimiter {
  private readonly command: RateLimitCommand;

  constructor(
    private readonly redis: RedisCommands,
    private readonly config: AppConfig,
  ) {
    const client = redis.client as unknown as Record<string, RateLimitCommand | undefined>;
    if (!client[COMMAND]) redis.client.defineCommand(COMMAND, { numberOfKeys: 2, lua: SCRIPT });
    this.command = (client[COMMAND] as RateLimitCommand).bind(redis.client);
  }

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
      result = await this.command(
        `${base}:${windowIndex}`,
        `${base}:${windowIndex - 1}`,
        limit,
        weight.toFixed(6),
        windowSeconds * 2,
      );
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
