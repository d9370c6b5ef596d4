import { AppError } from '@outreach/core';

/**
 * A call's life (decisions.md 16.24): QUEUED when the attempt records it, before the provider has
 * it; DIALING once the provider accepted it; RINGING; IN_PROGRESS once answered; then ENDED with an
 * outcome, or FAILED when the carrier failed it (or it was never placed, or reaped). The provider's
 * events move it forward only: a late or repeated event changes nothing.
 */
export const CALL_STATUSES = ['QUEUED', 'DIALING', 'RINGING', 'IN_PROGRESS', 'ENDED', 'FAILED'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
/** The statuses of a call that is not over: the provider may still have it, and it holds a line. */
export const LIVE_CALL_STATUSES: readonly CallStatus[] = ['QUEUED', 'DIALING', 'RINGING', 'IN_PROGRESS'];
/** What the provider reports while a call is live, in the order it happens. */
export type CallProgress = 'accepted' | 'ringing' | 'answered';
const PROGRESS_STATUS: Readonly<Record<CallProgress, CallStatus>> = { accepted: 'DIALING', ringing: 'RINGING', answered: 'IN_PROGRESS' };

/**
 * A campaign attempt, a one-off test call (POST /calls/test), or a call someone placed to one of our
 * numbers (decisions.md 36.3: `fromNumber` is then the caller, `toNumber` our number; with a campaign
 * and contact when an INBOUND campaign took it, without when it was declined).
 */
export const CALL_KINDS = ['campaign', 'test', 'inbound'] as const;
export type CallKind = (typeof CALL_KINDS)[number];

/** Extraction + evaluation of the transcript: PENDING until analysed; SKIPPED when there is nothing to analyse. */
export const ANALYSIS_STATUSES = ['PENDING', 'DONE', 'FAILED', 'SKIPPED'] as const;
export type AnalysisStatus = (typeof ANALYSIS_STATUSES)[number];

/** The provider's report of how a call ended (structurally the telephony VoiceCallResult). */
export interface CallEnding {
  outcome: string;
  providerDisposition: string;
  providerCallId: string;
  answeredAt: Date | null;
  endedAt: Date;
  durationMs: number;
  transcript: string | null;
  recordingUrl: string | null;
  providerAnalysis?: Record<string, unknown> | null;
}

/** The outcome whose call counts as FAILED rather than ENDED. */
export const FAILED_OUTCOME = 'carrier_failure';

export interface CallProps {
  id: string;
  workspaceId: string;
  campaignId: string | null;
  contactId: string | null;
  agentId: string | null;
  fromNumber: string | null;
  toNumber: string;
  kind: CallKind;
  status: CallStatus;
  outcome: string | null;
  providerDisposition: string | null;
  providerCallId: string | null;
  attemptNumber: number;
  startedAt: Date;
  answeredAt: Date | null;
  endedAt: Date | null;
  durationMs: number | null;
  transcript: string | null;
  recordingUrl: string | null;
  /** The provider's own post-call analysis (16.28); ours is extraction + evaluation. */
  providerAnalysis: Record<string, unknown> | null;
  extraction: Record<string, unknown> | null;
  evaluation: Record<string, unknown> | null;
  analysisStatus: AnalysisStatus;
  idempotencyKey: string | null;
  createdAt: Date;
}

export interface NewCall {
  id: string;
  workspaceId: string;
  campaignId: string | null;
  contactId: string | null;
  agentId: string | null;
  fromNumber: string | null;
  toNumber: string;
  attemptNumber: number;
  kind: CallKind;
  idempotencyKey?: string | null;
  now: Date;
}

/**
 * One call: an attempt of a campaign contact or a test call. Created QUEUED when dialling starts;
 * moved forward by the provider's progress (accepted, ringing, answered); finished exactly once
 * with the provider's ending (a second finish, or progress after it, changes nothing).
 */
export class Call {
  private constructor(private props: CallProps) {}

  static start(input: NewCall): Call {
    if (!Number.isInteger(input.attemptNumber) || input.attemptNumber < 0) {
      throw new AppError('invalid_request', { message: 'attemptNumber must be a whole number ≥ 0' });
    }
    if (!/^\+[1-9]\d{6,14}$/.test(input.toNumber)) {
      throw new AppError('invalid_request', { message: `${JSON.stringify(input.toNumber)} is not an E.164 number` });
    }
    return new Call({
      id: input.id,
      workspaceId: input.workspaceId,
      campaignId: input.campaignId,
      contactId: input.contactId,
      agentId: input.agentId,
      fromNumber: input.fromNumber,
      toNumber: input.toNumber,
      kind: input.kind,
      status: 'QUEUED',
      outcome: null,
      providerDisposition: null,
      providerCallId: null,
      attemptNumber: input.attemptNumber,
      startedAt: input.now,
      answeredAt: null,
      endedAt: null,
      durationMs: null,
      transcript: null,
      recordingUrl: null,
      providerAnalysis: null,
      extraction: null,
      evaluation: null,
      analysisStatus: 'PENDING',
      idempotencyKey: input.idempotencyKey ?? null,
      createdAt: input.now,
    });
  }

  static restore(props: CallProps): Call {
    return new Call({ ...props });
  }

  get id(): string {
    return this.props.id;
  }

  get status(): CallStatus {
    return this.props.status;
  }

  get isFinished(): boolean {
    return !LIVE_CALL_STATUSES.includes(this.props.status);
  }

  get providerCallId(): string | null {
    return this.props.providerCallId;
  }

  /**
   * The provider's word that the call is further along: accepted (with its own call id), ringing
   * or answered (at `at`). Only forward: false (and no change) for a step the call is past, or a
   * finished call — so duplicated and out-of-order events are harmless.
   */
  progress(step: CallProgress, event: { providerCallId?: string | null; at?: Date | null } = {}): boolean {
    if (this.isFinished) return false;
    const next = PROGRESS_STATUS[step];
    if (LIVE_CALL_STATUSES.indexOf(next) <= LIVE_CALL_STATUSES.indexOf(this.props.status)) return false;
    this.props = {
      ...this.props,
      status: next,
      providerCallId: event.providerCallId || this.props.providerCallId,
      answeredAt: step === 'answered' ? (event.at ?? this.props.answeredAt) : this.props.answeredAt,
    };
    return true;
  }

  /** Records how the call ended; false (and no change) when it had ended already. */
  finish(ending: CallEnding): boolean {
    if (this.isFinished) return false;
    if (!Number.isFinite(ending.durationMs) || ending.durationMs < 0) {
      throw new AppError('invalid_request', { message: 'durationMs must be ≥ 0' });
    }
    const transcript = ending.transcript && ending.transcript.trim() !== '' ? ending.transcript : null;
    this.props = {
      ...this.props,
      status: ending.outcome === FAILED_OUTCOME ? 'FAILED' : 'ENDED',
      outcome: ending.outcome,
      providerDisposition: ending.providerDisposition,
      providerCallId: ending.providerCallId || this.props.providerCallId,
      answeredAt: ending.answeredAt, // the ending is the provider's last word
      endedAt: ending.endedAt,
      durationMs: Math.round(ending.durationMs),
      transcript,
      recordingUrl: ending.recordingUrl,
      providerAnalysis: ending.providerAnalysis ?? null,
      // Nothing to extract from or evaluate without a transcript.
      analysisStatus: transcript ? 'PENDING' : 'SKIPPED',
    };
    return true;
  }

  toProps(): CallProps {
    return { ...this.props };
  }
}
