import { AppError } from '@outreach/core';
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
  /** The workspace placing the call: its carrier of `from` picks the adapter (decisions.md 27.1). */
  workspaceId: string;
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
  /** The provider's own post-call analysis, as it sent it (e.g. Vapi's summary and successEvaluation); absent or null when it has none. */
  providerAnalysis?: Record<string, unknown> | null;
}

/**
 * The provider's own record of a call, asked by our call id (decisions.md 16.18):
 * - unknown: the provider never accepted it (the worker died before the request reached it);
 * - in_progress: it is still ringing or talking;
 * - ended: how it ended, exactly as placeCall would have answered.
 */
export type VoiceCallStatus = { state: 'unknown' } | { state: 'in_progress' } | { state: 'ended'; result: VoiceCallResult };

/** The provider took the call: its own id for it. The call goes on without us (decisions.md 16.24). */
export interface PlacedCall {
  providerCallId: string;
}

/**
 * What a provider reports about a call after accepting it, by webhook (or, when one is overdue, by
 * the poll of lookupCall): it rings, it is answered, it ended. `eventId` is the provider's own id
 * of the event (a redelivery carries the same one); `callId` is ours.
 */
export type VoiceCallEvent =
  | { type: 'ringing' | 'answered'; provider: string; eventId: string; callId: string; providerCallId: string; at: Date }
  | { type: 'ended'; provider: string; eventId: string; callId: string; providerCallId: string; at: Date; result: VoiceCallResult };

/**
 * A call someone placed to one of our numbers, as the provider's webhook offers it (decisions.md
 * 36.3). `eventId` is the provider's id of the offer (a redelivery carries the same one).
 */
export interface IncomingCall {
  provider: string;
  eventId: string;
  providerCallId: string;
  /** The caller, as the provider reports it (E.164 when the caller id is not withheld). */
  from: string;
  /** Our number that was dialled (E.164). */
  to: string;
  at: Date;
}

/** What we answer an inbound call with, when the provider expects instructions in the webhook's answer (Twilio's TwiML). */
export interface WebhookReply {
  contentType: string;
  body: string;
}

/** An inbound call we take: our Call id for it and who answers it. */
export interface InboundCallRequest {
  callId: string;
  workspaceId: string;
  incoming: IncomingCall;
  agentId: string | null;
  maxDurationSecs: number;
  variables: Record<string, string>;
}

/** A browser test session with an agent (POST /calls/test/web, decisions.md 22.6). */
export interface WebSessionRequest {
  /** Our id for the session (the provider's idempotency handle, as a call id is). */
  sessionId: string;
  workspaceId: string;
  agentId: string;
}

/** What a browser needs to join the session: the provider's URL to open and the token it takes. */
export interface WebSession {
  sessionId: string;
  provider: string;
  url: string;
  token: string;
}

export abstract class VoiceProvider {
  /** The provider's name in webhook routes and event records (`sandbox`, `twilio`, …). */
  abstract readonly name: string;

  /**
   * Asks the provider to place the call and resolves as soon as it accepted it; how the call goes
   * arrives later as VoiceCallEvents. Idempotent on `request.callId`: placing a call id again never
   * dials a second time, it answers the first call's provider id. Rejects when the provider
   * refused or could not be reached (nothing was dialled).
   */
  abstract placeCall(request: VoiceCallRequest): Promise<PlacedCall>;

  /** What the provider knows of the call placed with this call id: the poll when an event is overdue, and the truth when ours was lost. */
  abstract lookupCall(callId: string): Promise<VoiceCallStatus>;

  /**
   * The inbound path (decisions.md 36.3), first half, in the process that received the provider's
   * offer: what the provider's webhook must be told now (Twilio's TwiML; the sandbox needs nothing).
   * A real provider's call gets its route here (call id → carrier, provider call id), so its status
   * callbacks find it. Idempotent on `request.callId`.
   */
  replyToIncoming(request: InboundCallRequest): Promise<WebhookReply | null> {
    void request;
    return Promise.resolve(null);
  }

  /**
   * Second half, in the worker (where call endings are settled): the agent takes the call. The
   * sandbox plays it and sends its events, as for a placed call; a real provider is on it already.
   * Idempotent on `request.callId`. A provider without an inbound path refuses (not_supported).
   */
  answerCall(request: InboundCallRequest): Promise<{ providerCallId: string }> {
    return Promise.reject(new AppError('not_supported', { message: `${this.name} takes no inbound calls (call ${request.callId})` }));
  }

  /**
   * Opens a browser test session with the agent (decisions.md 22.6). A provider that cannot host
   * one refuses with 501 web_session_not_supported; nothing is recorded or billed either way.
   */
  startWebSession(request: WebSessionRequest): Promise<WebSession> {
    return Promise.reject(new AppError('web_session_not_supported', { message: `${this.name} offers no web test sessions (agent ${request.agentId})` }));
  }

  /** The polite refusal of an inbound call nobody takes (no live campaign on the number): what the provider's webhook is told. */
  declineCall(incoming: IncomingCall): WebhookReply | null {
    void incoming;
    return null;
  }
}

/**
 * Where provider events go in this process (decisions.md 16.24): the webhook route and an
 * in-process provider (the sandbox) deliver here; the modules that own a call's consequences
 * subscribe (the calls module records progress and ends test calls; the engine, in the worker,
 * settles campaign attempts). Each subscriber is handed every event and ignores what is not its
 * own. A delivery rejects when a subscriber could not apply the event (the database unreachable):
 * the sender retries, as a provider retries a webhook that failed.
 */
export class VoiceCallEvents {
  private readonly subscribers: ((event: VoiceCallEvent) => Promise<void>)[] = [];

  subscribe(handler: (event: VoiceCallEvent) => Promise<void>): void {
    this.subscribers.push(handler);
  }

  async deliver(event: VoiceCallEvent): Promise<void> {
    if (this.subscribers.length === 0) throw new Error(`nothing handles voice events in this process (event ${event.eventId} of call ${event.callId})`);
    for (const handle of this.subscribers) await handle(event);
  }
}
