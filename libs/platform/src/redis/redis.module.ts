import { Global, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis, { RedisOptions } from 'ioredis';
import { AppConfig } from '@outreach/core';
import { installSocketTimeoutFix } from './socket-timeout-fix';

/** ioredis options from REDIS_URL, plus what every client here needs. */
export function redisOptions(config: AppConfig, extra: RedisOptions = {}): RedisOptions {
  return redisOptionsFor(config.redisUrl, extra);
}

/** The connection options for a Redis at `redisUrl` (another Redis than REDIS_URL's, such as the sandbox provider's store). */
export function redisOptionsFor(redisUrl: string, extra: RedisOptions = {}): RedisOptions {
  installSocketTimeoutFix(); // every client of the service gets its options here, BullMQ's too
  const url = new URL(redisUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 6379),
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0,
    tls: url.protocol === 'rediss:' ? {} : undefined,
    connectTimeout: 1000,
    retryStrategy: (times) => Math.min(100 * times, 2000),
    ...extra,
  };
}

/** A command on the request path gives up after this long (callers then fail open). */
export const REQUEST_PATH_COMMAND_TIMEOUT_MS = 50;
/**
 * A connection that has not answered a command for this long is dropped and re-opened. Without
 * it, a connection silently swallowed by the network (dropped NAT entry, failed-over host) stays
 * "ready" for good: every command times out and rate limiting never comes back, as the black-hole
 * drill in test/platform/redis-outage.e2e-spec.ts showed.
 */
export const SILENT_CONNECTION_MS = 1000;
/** /health/ready's PING gives up after this long. */
export const PROBE_COMMAND_TIMEOUT_MS = 500;

/**
 * The request-path Redis client (rate limits, short locks). It never queues commands while
 * disconnected and times them out quickly, so callers can fail open within ~50 ms when Redis
 * is down instead of hanging the request.
 */
@Injectable()
export class RedisCommands implements OnApplicationShutdown {
  readonly client: Redis;
  /**
   * A second connection for /health/ready. It is the same Redis, but a readiness probe must not
   * inherit the request path's 50 ms command timeout: on a busy host a PING can take longer than
   * that while Redis is perfectly healthy, and a probe that flaps takes the instance out of
   * rotation (seen in CI as a 503 right after the outage drill had ended).
   */
  readonly probe: Redis;
  private readonly logger = new Logger('Redis');
  private lastErrorLog = 0;

  constructor(config: AppConfig) {
    this.client = new Redis(
      redisOptions(config, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: REQUEST_PATH_COMMAND_TIMEOUT_MS,
        socketTimeout: SILENT_CONNECTION_MS,
        lazyConnect: false,
        // Commands issued in one tick (the rate-limit checks of concurrent requests) leave in one
        // socket write: a profile showed the write syscall per command as the rate limit's main
        // cost (decisions.md 41.4). Each command still gets its own answer and timeout.
        enableAutoPipelining: true,
      }),
    );
    this.probe = this.client.duplicate({ commandTimeout: PROBE_COMMAND_TIMEOUT_MS });
    const warn = (err: Error) => {
      const now = Date.now();
      if (now - this.lastErrorLog > 10000) {
        this.lastErrorLog = now;
        this.logger.warn(`redis unavailable: ${err.message}`);
      }
    };
    this.client.on('error', warn);
    this.probe.on('error', warn);
  }

  get ready(): boolean {
    return this.client.status === 'ready';
  }

  async onApplicationShutdown(): Promise<void> {
    this.client.disconnect();
    this.probe.disconnect();
  }
}

@Global()
@Module({ providers: [RedisCommands], exports: [RedisCommands] })
export class RedisModule {}
