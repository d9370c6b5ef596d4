import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '@outreach/core';
import { redisOptions } from './redis.module';

/** A publish (and, in the CLI, the connection it needs) gives up after this long; the listeners' caches then bound staleness by their TTL. */
export const BROADCAST_PUBLISH_TIMEOUT_MS = 1000;

/**
 * Changes announced to every process over Redis pub/sub on `<prefix>:<name>` (decisions.md 41.1,
 * 16.40): what one process committed, every other process's cache hears. `publish` delivers to
 * this process's listeners at once and never fails (the change is committed already; a lost
 * announcement costs at most the listeners' TTL). The publishing connection is opened on the
 * first announcement, the subscribing one on the first listener. After the subscription was lost
 * and came back, listeners get `lost`: what was published meanwhile is gone.
 */
export class RedisBroadcast<T> {
  private readonly logger: Logger;
  private readonly origin = randomUUID();
  private readonly channel: string;
  private readonly listeners: Array<(change: T) => void> = [];
  private publisher: Redis | null = null;
  private subscriber: Redis | null = null;
  private lastErrorLog = 0;

  constructor(
    private readonly config: AppConfig,
    name: string,
    /** What listeners hear when announcements may have been missed (drop everything). */
    private readonly lost: T,
    /** What a lost announcement costs, for the log line. */
    private readonly staleness: string,
  ) {
    this.channel = `${config.redisPrefix}:${name}`;
    this.logger = new Logger(`RedisBroadcast ${name}`);
  }

  async publish(change: T): Promise<void> {
    this.deliver(change);
    const message = JSON.stringify({ origin: this.origin, change });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.publisherClient().publish(this.channel, message),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer in ${BROADCAST_PUBLISH_TIMEOUT_MS} ms`)), BROADCAST_PUBLISH_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      this.logger.warn(`change not published (other processes see it within ${this.staleness}): ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  subscribe(listener: (change: T) => void): void {
    this.listeners.push(listener);
    if (this.subscriber) return;
    const subscriber = new Redis(redisOptions(this.config, { maxRetriesPerRequest: null, enableOfflineQueue: true }));
    this.subscriber = subscriber;
    let subscribedOnce = false;
    subscriber.on('error', (error: Error) => this.warn(error));
    subscriber.on('ready', () => {
      // ioredis re-subscribes on reconnect; changes published while it was away were missed.
      if (subscribedOnce) this.deliver(this.lost);
      subscribedOnce = true;
    });
    subscriber.on('message', (_channel: string, raw: string) => {
      try {
        const { origin, change } = JSON.parse(raw) as { origin: string; change: T };
        if (origin !== this.origin) this.deliver(change);
      } catch {
        this.deliver(this.lost);
      }
    });
    subscriber.subscribe(this.channel).catch((error: Error) => this.warn(error));
  }

  /** disconnect, not quit: a QUIT on a connection whose peer went silent waits for ever, and an announcement still unanswered is one the TTL covers. */
  close(): void {
    this.subscriber?.disconnect();
    this.publisher?.disconnect();
  }

  private deliver(change: T): void {
    for (const listener of this.listeners) listener(change);
  }

  private publisherClient(): Redis {
    if (!this.publisher) {
      this.publisher = new Redis(redisOptions(this.config, { maxRetriesPerRequest: 0, connectTimeout: BROADCAST_PUBLISH_TIMEOUT_MS }));
      this.publisher.on('error', (error: Error) => this.warn(error));
    }
    return this.publisher;
  }

  private warn(error: Error): void {
    const now = Date.now();
    if (now - this.lastErrorLog < 10_000) return;
    this.lastErrorLog = now;
    this.logger.warn(`redis unavailable: ${error.message}`);
  }
}
