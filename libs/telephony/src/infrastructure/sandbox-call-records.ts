import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, redisOptionsFor } from '@outreach/platform';
import Redis from 'ioredis';

/** What the sandbox provider remembers of a call it accepted: enough to answer it again. */
export interface SandboxCallRecord {
  callId: string;
  /** What the provider was asked, as a real provider's call log keeps it (the agent's variables included). */
  from: string;
  to: string;
  agentId: string | null;
  variables: Record<string, string>;
  maxDurationSecs: number;
  /** When the call was accepted, by the Clock port (the call's timestamps derive from it). */
  acceptedAt: string;
  /** Epoch ms (real time) from which the call has ended: acceptance + SANDBOX_VOICE_LATENCY_MS. */
  endsAtMs: number;
  /** SANDBOX_VOICE_LATENCY_MS when the call was accepted: how long the call really took (absent in older records: 0). */
  latencyMs?: number;
  /** An inbound call the sandbox offered and the agent took (`from` is the caller), with the sandbox's id for it (decisions.md 36.3). */
  inbound?: boolean;
  providerCallId?: string;
}

/**
 * The sandbox provider's own store of accepted calls: the "provider side", kept apart from our
 * database, so a call's ending can be asked again after the worker that placed it died or the
 * database was unreachable when it ended (decisions.md 16.18).
 */
export abstract class SandboxCallRecords {
  abstract put(record: SandboxCallRecord): Promise<void>;
  abstract get(callId: string): Promise<SandboxCallRecord | null>;
}

/** Kept a week, like a provider's call log. */
const RECORD_TTL_SECS = 7 * 24 * 3600;

/** The records in Redis (one key per call; SANDBOX_VOICE_REDIS_URL, else REDIS_URL), on a lazily opened connection of their own. */
@Injectable()
export class RedisSandboxCallRecords extends SandboxCallRecords implements OnApplicationShutdown {
  private client: Redis | null = null;

  constructor(private readonly config: AppConfig) {
    super();
  }

  async put(record: SandboxCallRecord): Promise<void> {
    await this.redis().set(this.key(record.callId), JSON.stringify(record), 'EX', RECORD_TTL_SECS);
  }

  async get(callId: string): Promise<SandboxCallRecord | null> {
    const raw = await this.redis().get(this.key(callId));
    return raw === null ? null : (JSON.parse(raw) as SandboxCallRecord);
  }

  onApplicationShutdown(): void {
    this.client?.disconnect();
  }

  private key(callId: string): string {
    return `${this.config.redisPrefix}:sandbox-voice:${callId}`;
  }

  private redis(): Redis {
    if (!this.client) {
      this.client = new Redis(redisOptionsFor(this.config.sandboxVoiceRedisUrl ?? this.config.redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 1000 }));
      this.client.on('error', () => undefined); // failures surface on the commands; callers decide
    }
    return this.client;
  }
}
