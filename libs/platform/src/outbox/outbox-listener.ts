import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { AppConfig } from '@outreach/core';
import { RateLimitedLog } from '../queue/queue-worker';
import { OutboxRelay } from './outbox-relay';

/** The listening connection's application_name (operators can find it in pg_stat_activity). */
export const OUTBOX_LISTENER_APPLICATION_NAME = 'outreach-worker-outbox-listen';
const RECONNECT_AFTER_MS = 1000;
/** A silent connection (network black hole) is noticed by this ping and replaced. */
const PING_EVERY_MS = 30_000;
const PING_TIMEOUT_MS = 5000;

/**
 * Wakes the outbox relay as soon as a transaction that wrote outbox rows commits: Outbox.enqueue
 * sends `NOTIFY outbox`, delivered on commit only, and this holds one connection that LISTENs
 * for it. A job then reaches BullMQ in milliseconds instead of waiting for the next poll. The
 * relay still polls (OUTBOX_POLL_MS), so a lost connection costs latency, never a job: the
 * listener reconnects after a second, and wakes the relay once connected for what it missed.
 */
@Injectable()
export class OutboxListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxListener');
  private readonly trouble = new RateLimitedLog(this.logger);
  private client: Client | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly config: AppConfig,
    private readonly relay: OutboxRelay,
  ) {}

  /** Whether the LISTEN connection is up (for tests and health). */
  get listening(): boolean {
    return this.client !== null;
  }

  onApplicationBootstrap(): void {
    void this.connect();
    this.pingTimer = setInterval(() => void this.ping(), PING_EVERY_MS);
    this.pingTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({
      connectionString: this.config.databaseUrl,
      connectionTimeoutMillis: this.config.dbConnectTimeoutMs,
      query_timeout: PING_TIMEOUT_MS,
      keepAlive: true,
      application_name: OUTBOX_LISTENER_APPLICATION_NAME,
    });
    let dropped = false;
    const drop = (reason: string) => {
      if (dropped) return;
      dropped = true;
      if (this.client === client) this.client = null;
      client.removeAllListeners('notification');
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.trouble.warn(`outbox LISTEN connection lost (${reason}); polling meanwhile, reconnecting`);
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = null;
        void this.connect();
      }, RECONNECT_AFTER_MS);
      this.reconnectTimer.unref();
    };
    // An 'error' without a listener would crash the process: every failure ends in drop().
    client.on('error', (error: Error) => drop(error.message));
    client.on('end', () => drop('connection ended'));
    client.on('notification', () => this.relay.wake());
    try {
      await client.connect();
      await client.query('LISTEN outbox');
    } catch (error) {
      drop((error as Error).message);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.relay.wake(); // rows committed while nobody listened
  }

  private async ping(): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      await client.query('SELECT 1');
    } catch (error) {
      client.emit('error', error);
    }
  }
}
