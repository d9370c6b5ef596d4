import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '@outreach/core';
import { redisOptions } from '../redis/redis.module';

/**
 * What changed about API-key access: one key (revoked, expiry moved), one member (status) or one
 * workspace (status, features, limits). `all` drops everything (a process that may have missed
 * changes while its subscription was down).
 */
export type AccessChange = { keyId: string } | { memberId: string } | { workspaceId: string } | { all: true };

/** A publish (and, in the CLI, the connection it needs) gives up after this long; the cache TTL then bounds staleness. */
export const ACCESS_CHANGE_PUBLISH_TIMEOUT_MS = 1000;

/**
 * Port: the owners of keys, members and workspaces announce every committed change here; every
 * API process's key cache hears it (decisions.md 41.1). `announce` never fails: the change is
 * committed already, and the cache's TTL bounds what a lost announcement costs.
 */
export abstract class AccessChanges {
  abstract announce(change: AccessChange): Promise<void>;
  /** Called for every change announced by this process or (through Redis) by any other. */
  abstract subscribe(listener: (change: AccessChange) => void): void;
}

/**
 * AccessChanges over Redis pub/sub on `<prefix>:access-changes`. The publishing connection is
 * opened on the first announcement (a CLI command, a test), the subscribing one on the first
 * subscriber (the API's key cache). After the subscription was lost and came back, listeners get
 * `{ all: true }`: what was published meanwhile is gone.
 */
@Injectable()
export class RedisAccessChanges extends AccessChanges implements OnApplicationShutdown {
  private readonly logger = new Logger('AccessChanges');
  private readonly origin = randomUUID();
  private readonly channel: string;
  private readonly listeners: Array<(change: AccessChange) => void> = [];
  private publisher: Redis | null = null;
  private subscriber: Redis | null = null;
  private lastErrorLog = 0;

  constructor(private readonly config: AppConfig) {
    super();
    this.channel = `${config.redisPrefix}:access-changes`;
  }

  async announce(change: AccessChange): Promise<void> {
    this.deliver(change);
    const message = JSON.stringify({ origin: this.origin, change });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.publisherClient().publish(this.channel, message),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer in ${ACCESS_CHANGE_PUBLISH_TIMEOUT_MS} ms`)), ACCESS_CHANGE_PUBLISH_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      this.logger.warn(
        `access change not published (other API processes see it within API_KEY_CACHE_TTL_MS): ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  subscribe(listener: (change: AccessChange) => void): void {
    this.listeners.push(listener);
    if (this.subscriber) return;
    const subscriber = new Redis(redisOptions(this.config, { maxRetriesPerRequest: null, enableOfflineQueue: true }));
    this.subscriber = subscriber;
    let subscribedOnce = false;
    subscriber.on('error', (error: Error) => this.warn(error));
    subscriber.on('ready', () => {
      // ioredis re-subscribes on reconnect; changes published while it was away were missed.
      if (subscribedOnce) this.deliver({ all: true });
      subscribedOnce = true;
    });
    subscriber.on('message', (_channel: string, raw: string) => {
      try {
        const { origin, change } = JSON.parse(raw) as { origin: string; change: AccessChange };
        if (origin !== this.origin) this.deliver(change);
      } catch {
        this.deliver({ all: true });
      }
    });
    subscriber.subscribe(this.channel).catch((error: Error) => this.warn(error));
  }

  onApplicationShutdown(): void {
    // disconnect, not quit: a QUIT on a connection whose peer went silent waits for ever, and an
    // announcement still unanswered at shutdown is one the cache's TTL already covers.
    this.subscriber?.disconnect();
    this.publisher?.disconnect();
  }

  private deliver(change: AccessChange): void {
    for (const listener of this.listeners) listener(change);
  }

  private publisherClient(): Redis {
    if (!this.publisher) {
      this.publisher = new Redis(redisOptions(this.config, { maxRetriesPerRequest: 0, connectTimeout: ACCESS_CHANGE_PUBLISH_TIMEOUT_MS }));
      this.publisher.on('error', (error: Error) => this.warn(error));
    }
    return this.publisher;
  }

  private warn(error: Error): void {
    const now = Date.now();
    if (now - this.lastErrorLog < 10_000) return;
    this.lastErrorLog = now;
    this.logger.warn(`redis unavailable for access changes: ${error.message}`);
  }
}
