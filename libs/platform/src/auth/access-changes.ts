import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@outreach/core';
import { RedisBroadcast } from '../redis/redis-broadcast';

/**
 * What changed about API-key access: one key (revoked, expiry moved), one member (status) or one
 * workspace (status, features, limits). `all` drops everything (a process that may have missed
 * changes while its subscription was down).
 */
export type AccessChange = { keyId: string } | { memberId: string } | { workspaceId: string } | { all: true };

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
 * AccessChanges over Redis pub/sub on `<prefix>:access-changes` (RedisBroadcast). After the
 * subscription was lost and came back, listeners get `{ all: true }`: what was published meanwhile
 * is gone.
 */
@Injectable()
export class RedisAccessChanges extends AccessChanges implements OnApplicationShutdown {
  private readonly broadcast: RedisBroadcast<AccessChange>;

  constructor(config: AppConfig) {
    super();
    this.broadcast = new RedisBroadcast<AccessChange>(config, 'access-changes', { all: true }, 'API_KEY_CACHE_TTL_MS');
  }

  announce(change: AccessChange): Promise<void> {
    return this.broadcast.publish(change);
  }

  subscribe(listener: (change: AccessChange) => void): void {
    this.broadcast.subscribe(listener);
  }

  onApplicationShutdown(): void {
    this.broadcast.close();
  }
}
