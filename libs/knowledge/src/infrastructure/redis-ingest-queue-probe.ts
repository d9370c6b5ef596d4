import { Injectable } from '@nestjs/common';
import { PROBE_COMMAND_TIMEOUT_MS, RedisCommands } from '@outreach/platform';
import { IngestQueueProbe } from '../application/knowledge.ports';

/**
 * The queue is Redis (BullMQ): one PING on the readiness probe's connection, given up after
 * PROBE_COMMAND_TIMEOUT_MS. The job itself still goes through the outbox (decisions.md 39.4).
 */
@Injectable()
export class RedisIngestQueueProbe extends IngestQueueProbe {
  constructor(private readonly redis: RedisCommands) {
    super();
  }

  async reachable(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.redis.probe.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), PROBE_COMMAND_TIMEOUT_MS);
        }),
      ]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
