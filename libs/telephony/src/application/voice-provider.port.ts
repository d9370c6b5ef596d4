/**
 * The voice channel's provider port (decisions.md 16.12): places one outbound call and reports how it
 * ended. The engine is channel-generic; this is the voice leg. The default adapter is the
 * deterministic sandbox (infrastructure/sandbox-voice.provider.ts).
 */
export const CALL_OUTCOMES = ['no_answer', 'busy', 'voicemail', 'carrier_failure', 'transferred', 'completed'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** Answered by someone: a human (transferred, completed) or a machine (voicemail). Billed per started minute. */
export const ANSWERED_OUTCOMES: readonly CallOutcome[] = ['voicemail', 'transferred', 'completed'];
/** A human answered: the contact is reached. */
export const CONNECTED_OUTCOMES: readonly CallOutcome[] = ['transferred', 'completed'];

export function isAnswered(outcome: CallOutcome): boolean {
  return ANSWERED_OUTCOMES.includes(outcome);
}

export interface VoiceCallRequest {
  /** Our Call id: the provider's idempotency handle. */
  callId: string;
  /** E.164 caller id (one of the workspace's numbers). */
  from: string;
  /** E.164 number to dial. */
  to: string;
  agentId: string | null;
  /** The call is cut after this long (the agent's maxCallDurationSecs). */
  maxDurationSecs: number;
  /** Template variables for the agent's prompt. */
  variables: Record<string, string>;
}

export interface VoiceCallResult {
  outcome: CallOutcome;
  /** The provider's own word for how it ended (no-answer, busy, machine, failed, transferred, completed, reaped…). */
  providerDisposition: string;
  providerCallId: string;
  answeredAt: Date | null;
  endedAt: Date;
  /** Talk time after answer, ms (0 when not answered). */
  durationMs: number;
  transcript: string | null;
  recordingUrl: string | null;
}

/**
 * The provider's own record of a call, asked by our call id (decisions.md 16.18):
 * - unknown: the provider never accepted it (the worker died before the request reached it);
 * - in_progress: it is still ringing or talking;
 * - ended: how it ended, exactly as placeCall would have answered.
 */
export type VoiceCallStatus = { state: 'unknown' } | { state: 'in_progress' } | { state: 'ended'; result: VoiceCallResult };

export abstract class VoiceProvider {
  /**
   * Places the call and resolves when it has ended. Never rejects for a call outcome (busy etc.).
   * Idempotent on `request.callId`: placing a call id again never dials a second time, it
   * answers the first call's ending.
   */
  abstract placeCall(request: VoiceCallRequest): Promise<VoiceCallResult>;

  /** What the provider knows of the call placed with this call id: the truth when ours was lost. */
  abstract lookupCall(callId: string): Promise<VoiceCallStatus>;
}
