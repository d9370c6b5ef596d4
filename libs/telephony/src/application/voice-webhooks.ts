import { CALL_OUTCOMES, IncomingCall, VoiceCallEvent, VoiceCallResult } from './voice-provider.port';

/** A provider event as JSON (dates as ISO strings): the sandbox's webhook body and the worker job's payload. */
export type VoiceCallEventWire = Omit<VoiceCallEvent, 'at' | 'result'> & {
  at: string;
  result?: Omit<VoiceCallResult, 'answeredAt' | 'endedAt'> & { answeredAt: string | null; endedAt: string };
};

export function toWire(event: VoiceCallEvent): VoiceCallEventWire {
  const base = { type: event.type, provider: event.provider, eventId: event.eventId, callId: event.callId, providerCallId: event.providerCallId, at: event.at.toISOString() };
  if (event.type !== 'ended') return base;
  const { result } = event;
  return { ...base, result: { ...result, answeredAt: result.answeredAt?.toISOString() ?? null, endedAt: result.endedAt.toISOString() } };
}

/** The event a wire form stands for; throws on anything malformed (a reader turns that into a refusal). */
export function fromWire(wire: unknown): VoiceCallEvent {
  const w = wire as Partial<VoiceCallEventWire> | null;
  const text = (v: unknown, name: string): string => {
    if (typeof v !== 'string' || v === '') throw new Error(`${name} must be a non-empty string`);
    return v;
  };
  const date = (v: unknown, name: string): Date => {
    const d = new Date(text(v, name));
    if (Number.isNaN(d.getTime())) throw new Error(`${name} must be an ISO timestamp`);
    return d;
  };
  if (!w || typeof w !== 'object') throw new Error('an event must be an object');
  const base = {
    provider: text(w.provider, 'provider'),
    eventId: text(w.eventId, 'eventId'),
    callId: text(w.callId, 'callId'),
    providerCallId: text(w.providerCallId, 'providerCallId'),
    at: date(w.at, 'at'),
  };
  if (w.type === 'ringing' || w.type === 'answered') return { ...base, type: w.type };
  if (w.type !== 'ended') throw new Error('type must be ringing, answered or ended');
  const r = w.result;
  if (!r || typeof r !== 'object') throw new Error('an ended event carries its result');
  if (!(CALL_OUTCOMES as readonly string[]).includes(r.outcome as string)) throw new Error(`result.outcome must be one of ${CALL_OUTCOMES.join(', ')}`);
  if (typeof r.durationMs !== 'number' || !Number.isFinite(r.durationMs) || r.durationMs < 0) throw new Error('result.durationMs must be a number ≥ 0');
  return {
    ...base,
    type: 'ended',
    result: {
      outcome: r.outcome,
      providerDisposition: text(r.providerDisposition, 'result.providerDisposition'),
      providerCallId: typeof r.providerCallId === 'string' ? r.providerCallId : base.providerCallId,
      answeredAt: r.answeredAt === null || r.answeredAt === undefined ? null : date(r.answeredAt, 'result.answeredAt'),
      endedAt: date(r.endedAt, 'result.endedAt'),
      durationMs: r.durationMs,
      transcript: typeof r.transcript === 'string' ? r.transcript : null,
      recordingUrl: typeof r.recordingUrl === 'string' ? r.recordingUrl : null,
      providerAnalysis: r.providerAnalysis !== null && typeof r.providerAnalysis === 'object' && !Array.isArray(r.providerAnalysis) ? (r.providerAnalysis as Record<string, unknown>) : null,
    },
  };
}

/** A webhook whose signature does not verify (or whose body is not an event): nothing of it is used. */
export class WebhookNotAuthentic extends Error {}

/** An inbound webhook request as received: its headers, the raw body and the path with its query. */
export interface WebhookRequest {
  headers: Readonly<Record<string, string | undefined>>;
  rawBody: Buffer;
  /** The request's path and query as the client sent it (e.g. `/webhooks/voice/twilio?callId=…`): Twilio signs the full URL. */
  url: string;
}

/**
 * One provider's inbound webhooks (decisions.md 16.24, 27): verifies the signature over the raw
 * body before anything else, then reads the provider's events from it. Rejects with
 * WebhookNotAuthentic for a bad or missing signature, a stale timestamp or a body it cannot read.
 * Nothing is written while reading (a real provider's reader only looks up the call's account).
 */
export abstract class VoiceWebhookReader {
  abstract readonly provider: string;
  abstract read(request: WebhookRequest, now: Date): Promise<VoiceCallEvent[]>;

  /**
   * The inbound path (decisions.md 36.3): the call offered by this request when it is one (verified
   * like any event), else null and the request is read as events. WebhookNotAuthentic as read().
   */
  async readIncoming(request: WebhookRequest, now: Date): Promise<IncomingCall | null> {
    void request;
    void now;
    return null;
  }
}

/** Every provider's webhook reader, by the provider's name in the route. */
export class VoiceWebhookReaders {
  private readonly byProvider: ReadonlyMap<string, VoiceWebhookReader>;

  constructor(readers: readonly VoiceWebhookReader[]) {
    this.byProvider = new Map(readers.map((r) => [r.provider, r]));
  }

  find(provider: string): VoiceWebhookReader | null {
    return this.byProvider.get(provider) ?? null;
  }
}
