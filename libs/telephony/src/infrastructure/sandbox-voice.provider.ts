import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '@outreach/platform';
import { Clock } from '@outreach/core';
import { CallOutcome, VoiceCallRequest, VoiceCallResult, VoiceProvider } from '../application/voice-provider.port';

/** What the sandbox does with a number: everything derives from the number alone. */
export interface SandboxScript {
  outcome: CallOutcome;
  providerDisposition: string;
  /** Ringing before answer (or before giving up), ms. */
  ringMs: number;
  /** Talk time after answer, ms (0 when not answered). */
  durationMs: number;
  transcript: string | null;
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
      return { outcome, providerDisposition: DISPOSITION[outcome], ringMs: ring(2, 8), durationMs, transcript };
    }
  }
}

/**
 * The default VoiceProvider: deterministic outcomes from the number (see sandboxScript), timestamps
 * from the Clock port (answeredAt = start + ring, endedAt = answeredAt + talk time), and an optional
 * real-time latency (SANDBOX_VOICE_LATENCY_MS) standing for the call being in flight.
 */
@Injectable()
export class SandboxVoiceProvider extends VoiceProvider {
  constructor(
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async placeCall(request: VoiceCallRequest): Promise<VoiceCallResult> {
    const startedAt = this.clock.now().getTime();
    const script = sandboxScript(request.to, request.maxDurationSecs);
    if (this.config.sandboxVoiceLatencyMs > 0) await sleep(this.config.sandboxVoiceLatencyMs);
    const answered = script.outcome === 'voicemail' || script.outcome === 'transferred' || script.outcome === 'completed';
    const answeredAt = answered ? new Date(startedAt + script.ringMs) : null;
    const endedAt = new Date(startedAt + script.ringMs + script.durationMs);
    return {
      outcome: script.outcome,
      providerDisposition: script.providerDisposition,
      providerCallId: `sbx_call_${request.callId}`,
      answeredAt,
      endedAt,
      durationMs: script.durationMs,
      transcript: script.transcript,
      recordingUrl: answered ? `https://sandbox.invalid/recordings/${request.callId}.mp3` : null,
    };
  }
}
