import { createHash } from 'node:crypto';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@outreach/platform';
import { Clock } from '@outreach/core';
import {
  CallOutcome,
  InboundCallRequest,
  PlacedCall,
  VoiceCallEvent,
  VoiceCallEvents,
  VoiceCallRequest,
  VoiceCallResult,
  VoiceCallStatus,
  VoiceProvider,
  WebSession,
  WebSessionRequest,
} from '../application/voice-provider.port';
import { SandboxCallRecord, SandboxCallRecords } from './sandbox-call-records';

/** What the sandbox does with a number: everything derives from the number alone. */
export interface SandboxScript {
  outcome: CallOutcome;
  providerDisposition: string;
  /** Ringing before answer (or before giving up), ms. */
  ringMs: number;
  /** Talk time after answer, ms (0 when not answered). */
  durationMs: number;
  transcript: string | null;
  /**
   * The sandbox's own analysis of a completed call (decisions.md 35.5), from the number's
   * second-to-last digit: 6 not interested, 7 interested, 8 interested and gives a referral; none
   * otherwise (and for every call a person did not complete).
   */
  providerAnalysis?: { interested: boolean; referrals?: string[] };
}

/**
 * The number a sandbox callee with second-to-last digit 8 refers: its third-from-last digit plus one
 * (mod 10). It keeps the last two digits, so the referral completes and refers again: a chain that
 * only referralMaxDepth ends.
 */
export function sandboxReferralOf(to: string): string {
  const at = to.length - 3; // E.164: digits only after the "+"
  return `${to.slice(0, at)}${(Number(to[at]) + 1) % 10}${to.slice(at + 1)}`;
}

/** What a person who completed the call said about their interest (see SandboxScript.providerAnalysis). */
function sandboxAnalysis(to: string): SandboxScript['providerAnalysis'] {
  const digits = to.replace(/\D/g, '');
  switch (digits[digits.length - 2]) {
    case '6':
      return { interested: false };
    case '7':
      return { interested: true };
    case '8':
      return { interested: true, referrals: [sandboxReferralOf(to)] };
    default:
      return undefined;
  }
}

const OUTCOME_BY_DIGIT: readonly CallOutcome[] = [
  'no_answer',
  'busy',
  'voicemail',
  'carrier_failure',
  'transferred',
  'completed',
  'completed',
  'completed',
  'completed',
  'completed',
];

const DISPOSITION: Readonly<Record<CallOutcome, string>> = {
  no_answer: 'no-answer',
  busy: 'busy',
  voicemail: 'machine',
  carrier_failure: 'failed',
  transferred: 'transferred',
  completed: 'completed',
};

function hash32(text: string, salt: string): number {
  return createHash('sha256').update(`${salt}:${text}`).digest().readUInt32BE(0);
}

/**
 * The sandbox's answer for a number (decisions.md 16.13): the LAST DIGIT picks the outcome — 0 no
 * answer, 1 busy, 2 voicemail (answered by a machine), 3 carrier failure, 4 answered then
 * transferred, 5–9 answered and completed — and a hash of the number gives ring time, talk time
 * and transcript, so tests and benchmarks are reproducible. Talk time is capped by maxDurationSecs.
 */
export function sandboxScript(to: string, maxDurationSecs = 3600): SandboxScript {
  const digit = Number(/(\d)\D*$/.exec(to)?.[1] ?? '0');
  const outcome = OUTCOME_BY_DIGIT[digit];
  const h = hash32(to, 'duration');
  const capMs = maxDurationSecs * 1000;
  const ring = (min: number, spread: number) => (min + (hash32(to, 'ring') % spread)) * 1000;
  switch (outcome) {
    case 'no_answer':
      return { outcome, providerDisposition: DISPOSITION[outcome], ringMs: ring(25, 10), durationMs: 0, transcript: null };
    case 'busy':
      return { outcome, providerDisposition: DISPOSITION[outcome], ringMs: ring(1, 3), durationMs: 0, transcript: null };
    case 'carrier_failure':
      return { outcome, providerDisposition: DISPOSITION[outcome], ringMs: 0, durationMs: 0, transcript: null };
    case 'voicemail': {
      const durationMs = Math.min(capMs, 10_000 + (h % 35_000)); // 10–45 s greeting + message
      return {
        outcome,
        providerDisposition: DISPOSITION[outcome],
        ringMs: ring(8, 10),
        durationMs,
        transcript: `Voicemail: You have reached ${to}. Please leave a message after the tone.\nAgent: Hello, this is a message for you; we will call back later.`,
      };
    }
    case 'transferred':
    case 'completed': {
      const durationMs = Math.min(capMs, 5_000 + (h % 295_000)); // 5 s – 5 min
      const transcript =
        outcome === 'transferred'
          ? `Agent: Hello, am I speaking with the owner of ${to}?\nCustomer: Yes. Can I talk to a person, please?\nAgent: Of course, transferring you now.`
          : `Agent: Hello, am I speaking with the owner of ${to}?\nCustomer: Yes, speaking.\nAgent: Thank you for your time today.\nCustomer: You're welcome, goodbye.`;
      const providerAnalysis = outcome === 'completed' ? sandboxAnalysis(to) : undefined;
      return { outcome, providerDisposition: DISPOSITION[outcome], ringMs: ring(2, 8), durationMs, transcript, ...(providerAnalysis ? { providerAnalysis } : {}) };
    }
  }
}

/**
 * The sandbox's answer for an inbound call (decisions.md 36.3): the agent always picks up; the
 * CALLER's last digit 4 asks for a person (transferred), every other caller completes the call. Talk
 * time and transcript derive from the caller's number, so a simulated inbound run is reproducible.
 */
export function sandboxInboundScript(caller: string, maxDurationSecs = 3600): SandboxScript {
  const digit = Number(/(\d)\D*$/.exec(caller)?.[1] ?? '0');
  const outcome: CallOutcome = digit === 4 ? 'transferred' : 'completed';
  const durationMs = Math.min(maxDurationSecs * 1000, 5_000 + (hash32(caller, 'inbound-duration') % 295_000));
  const transcript =
    outcome === 'transferred'
      ? `Agent: Thank you for calling, how can I help?\nCustomer: This is ${caller}. Can I talk to a person, please?\nAgent: Of course, transferring you now.`
      : `Agent: Thank you for calling, how can I help?\nCustomer: This is ${caller}, I saw your offer and I am interested.\nAgent: Wonderful, I have noted it. Anything else?\nCustomer: No, thank you, goodbye.`;
  return { outcome, providerDisposition: DISPOSITION[outcome], ringMs: 1000 + (hash32(caller, 'inbound-ring') % 2000), durationMs, transcript };
}

/**
 * When a sandbox call accepted at `acceptedAt` that really took `latencyMs` was answered and ended:
 * the script's ring-then-talk timeline scaled into [acceptedAt, acceptedAt + latencyMs]. A sandbox
 * call lasts milliseconds while its script says minutes; stretching the timestamps to the script
 * would put them ahead of the clock, after the result that reports them (issue 20).
 */
export function sandboxTimeline(acceptedAt: Date, latencyMs: number, script: Pick<SandboxScript, 'ringMs' | 'durationMs'>): { answeredAt: Date; endedAt: Date } {
  const start = acceptedAt.getTime();
  const scripted = script.ringMs + script.durationMs;
  const ringShare = scripted === 0 ? 1 : script.ringMs / scripted;
  return { answeredAt: new Date(start + Math.round(latencyMs * ringShare)), endedAt: new Date(start + latencyMs) };
}

/** Calls remembered in this process (the Redis store is the lasting copy). */
const MEMORY_LIMIT = 10_000;

/** A failed delivery is retried after these delays, then left to the engine's poll (lookupCall). */
const REDELIVERY_MS = [250, 1000, 2000, 4000, 8000];

/**
 * The default VoiceProvider: deterministic outcomes from the number (see sandboxScript), and an
 * optional real-time latency (SANDBOX_VOICE_LATENCY_MS) standing for the call being in flight.
 * Timestamps come from the Clock port and never lie ahead of it: the script's ring and talk time
 * are compressed into the time the call really took (see sandboxTimeline), while `durationMs`
 * stays the script's talk time, the billed figure (decisions.md 16.23).
 *
 * It speaks a real provider's protocol (decisions.md 16.24): placeCall returns once the call is
 * accepted; a timer owned by this process then delivers its events — ringing at once, answered and
 * ended after the latency — to VoiceCallEvents, redelivering a failed one a few times. Like a real
 * provider it keeps a record of every call it accepted (SandboxCallRecords, in Redis, plus a copy
 * in memory), so placing a call id twice dials once, and lookupCall answers how a call ended after
 * the process that placed it (and its timers) died (decisions.md 16.18). A record that could not
 * be written to Redis is kept in memory only: the call still happens.
 */
@Injectable()
export class SandboxVoiceProvider extends VoiceProvider implements OnApplicationShutdown {
  readonly name = 'sandbox';
  private readonly logger = new Logger('SandboxVoiceProvider');
  private readonly memory = new Map<string, SandboxCallRecord>();
  /** Calls whose events this process is due to send (a timer each). */
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;
  /** Deliveries under way. */
  private sending = 0;

  constructor(
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly records: SandboxCallRecords,
    /** Where this provider delivers its calls' events (the app's, or a test's). */
    readonly events: VoiceCallEvents,
  ) {
    super();
  }

  async placeCall(request: VoiceCallRequest): Promise<PlacedCall> {
    const known = await this.find(request.callId).catch(() => null);
    const record = known ?? (await this.accept(request));
    // A call placed again by another process (the first died): its events are sent from here now.
    if (!known || (Date.now() < record.endsAtMs + 60_000 && !this.timers.has(record.callId))) this.schedule(record, !known);
    return { providerCallId: providerCallId(record.callId) };
  }

  /**
   * A browser test session (decisions.md 22.6): made up, deterministically, from the session id and
   * the agent (the same request answers the same session); nothing is stored and no call placed.
   */
  override startWebSession(request: WebSessionRequest): Promise<WebSession> {
    const digest = createHash('sha256').update(`${request.sessionId}:${request.agentId}`).digest('hex');
    return Promise.resolve({
      sessionId: request.sessionId,
      provider: this.name,
      url: `https://sandbox.invalid/web-sessions/${request.sessionId}`,
      token: `sbx_ws_${digest.slice(0, 32)}`,
    });
  }

  /** An inbound call the sandbox offered (its webhook, or call:simulate-inbound): the agent takes it; events follow as for a placed call. */
  override async answerCall(request: InboundCallRequest): Promise<{ providerCallId: string }> {
    const known = await this.find(request.callId).catch(() => null);
    const record =
      known ??
      (await this.accept(
        { callId: request.callId, workspaceId: request.workspaceId, from: request.incoming.from, to: request.incoming.to, agentId: request.agentId, maxDurationSecs: request.maxDurationSecs, variables: request.variables },
        { inbound: true, providerCallId: request.incoming.providerCallId },
      ));
    if (!known || (Date.now() < record.endsAtMs + 60_000 && !this.timers.has(record.callId))) this.schedule(record, !known);
    return { providerCallId: record.providerCallId ?? providerCallId(record.callId) };
  }

  async lookupCall(callId: string): Promise<VoiceCallStatus> {
    const record = await this.find(callId);
    if (!record) return { state: 'unknown' };
    if (Date.now() < record.endsAtMs) return { state: 'in_progress' };
    return { state: 'ended', result: this.ending(record) };
  }

  /**
   * Resolves once every event this process is due to send has been sent (or, past `timeoutMs`,
   * given up): for tests that clear the database between cases while calls are still ending.
   */
  async drain(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((this.timers.size > 0 || this.sending > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(record: SandboxCallRecord, ringNow: boolean): void {
    const { callId } = record;
    const ending = this.ending(record);
    const base = { provider: this.name, callId, providerCallId: record.providerCallId ?? providerCallId(callId) };
    if (ringNow) {
      const ringing = { ...base, type: 'ringing' as const, eventId: `${callId}:ringing`, at: new Date(record.acceptedAt) };
      const key = `${callId}:ringing`;
      this.timers.set(key, setTimeout(() => {
        this.timers.delete(key);
        void this.send(ringing, 0);
      }, 0));
    }
    const fire = async () => {
      // A timer may fire a millisecond early by the wall clock: the call has ended only when
      // lookupCall, which compares with Date.now(), says so too.
      if (Date.now() < record.endsAtMs) {
        this.timers.set(callId, setTimeout(fire, record.endsAtMs - Date.now()));
        return;
      }
      this.timers.delete(callId);
      if (ending.answeredAt) {
        await this.send({ ...base, type: 'answered', eventId: `${callId}:answered`, at: ending.answeredAt }, 0);
      }
      await this.send({ ...base, type: 'ended', eventId: `${callId}:ended`, at: ending.endedAt, result: ending }, 0);
    };
    this.timers.set(callId, setTimeout(fire, Math.max(0, record.endsAtMs - Date.now())));
  }

  /** Delivers one event; on failure, tries again later, as a provider redelivers a webhook. */
  private async send(event: VoiceCallEvent, attempt: number): Promise<void> {
    if (this.stopped) return;
    this.sending++;
    try {
      await this.events.deliver(event);
    } catch (error) {
      const delay = REDELIVERY_MS[attempt];
      if (delay === undefined || this.stopped) {
        this.logger.warn(`sandbox event ${event.eventId} not delivered (${(error as Error).message}); the engine's poll will find the call`);
        return;
      }
      const timer = setTimeout(() => {
        this.timers.delete(`${event.eventId}:retry`);
        void this.send(event, attempt + 1);
      }, delay);
      this.timers.set(`${event.eventId}:retry`, timer);
    } finally {
      this.sending--;
    }
  }

  private async accept(request: VoiceCallRequest, inbound: Pick<SandboxCallRecord, 'inbound' | 'providerCallId'> = {}): Promise<SandboxCallRecord> {
    const record: SandboxCallRecord = {
      ...inbound,
      callId: request.callId,
      from: request.from,
      to: request.to,
      agentId: request.agentId,
      variables: request.variables,
      maxDurationSecs: request.maxDurationSecs,
      acceptedAt: this.clock.now().toISOString(),
      endsAtMs: Date.now() + this.config.sandboxVoiceLatencyMs,
      latencyMs: this.config.sandboxVoiceLatencyMs,
    };
    this.remember(record);
    await this.records.put(record).catch((error: Error) => this.logger.warn(`sandbox call ${request.callId} kept in memory only: ${error.message}`));
    return record;
  }

  private async find(callId: string): Promise<SandboxCallRecord | null> {
    return this.memory.get(callId) ?? (await this.records.get(callId));
  }

  private remember(record: SandboxCallRecord): void {
    if (this.memory.size >= MEMORY_LIMIT) this.memory.delete(this.memory.keys().next().value as string);
    this.memory.set(record.callId, record);
  }

  /** How the recorded call ended: derived from the number and the acceptance time alone. */
  private ending(record: SandboxCallRecord): VoiceCallResult {
    const script = record.inbound ? sandboxInboundScript(record.from, record.maxDurationSecs) : sandboxScript(record.to, record.maxDurationSecs);
    const answered = script.outcome === 'voicemail' || script.outcome === 'transferred' || script.outcome === 'completed';
    const { answeredAt, endedAt } = sandboxTimeline(new Date(record.acceptedAt), record.latencyMs ?? 0, script);
    return {
      outcome: script.outcome,
      providerDisposition: script.providerDisposition,
      providerCallId: record.providerCallId ?? providerCallId(record.callId),
      answeredAt: answered ? answeredAt : null,
      endedAt,
      durationMs: script.durationMs,
      transcript: script.transcript,
      recordingUrl: answered ? `https://sandbox.invalid/recordings/${record.callId}.mp3` : null,
      ...(script.providerAnalysis ? { providerAnalysis: { ...script.providerAnalysis } } : {}),
    };
  }
}

const providerCallId = (callId: string) => `sbx_call_${callId}`;
