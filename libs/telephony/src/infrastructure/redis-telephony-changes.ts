import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, RedisBroadcast } from '@outreach/platform';
import { TelephonyChange, TelephonyChanges } from '../application/caller-id-routes';

/** TelephonyChanges over Redis pub/sub on `<prefix>:telephony-changes` (decisions.md 16.40). */
@Injectable()
export class RedisTelephonyChanges extends TelephonyChanges implements OnApplicationShutdown {
  private readonly broadcast: RedisBroadcast<TelephonyChange>;

  constructor(config: AppConfig) {
    super();
    this.broadcast = new RedisBroadcast<TelephonyChange>(config, 'telephony-changes', { all: true }, 'CALLER_ID_ROUTE_TTL_MS (1 s)');
  }

  announce(change: TelephonyChange): Promise<void> {
    return this.broadcast.publish(change);
  }

  subscribe(listener: (change: TelephonyChange) => void): void {
    this.broadcast.subscribe(listener);
  }

  onApplicationShutdown(): void {
    this.broadcast.close();
  }
}
