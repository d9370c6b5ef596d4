import { PlacedCall, VoiceCallEvents, VoiceCallRequest, VoiceCallResult, VoiceCallStatus, VoiceProvider } from '../application/voice-provider.port';

/**
 * A voice provider that answers what the spec scripts (default: a completed 61 s call) and keeps
 * every request. Like a real provider it accepts a call at once and reports its ending later, as
 * an `ended` event delivered to `events` once the scripted answer resolves (`accept` scripts a
 * refusal: placeCall rejects). It remembers each call id it placed: placing one again dials no
 * second time; lookupCall answers 'in_progress' until the scripted answer resolves, then 'ended'
 * with it (or what `lookup` scripts), and 'unknown' for a call id never placed. `delivered` holds
 * the outcome of every delivery (an event the handler refused is not sent again: the poll's job).
 */
export class ScriptedVoiceProvider extends VoiceProvider {
  readonly name = 'scripted';
  readonly requests: VoiceCallRequest[] = [];
  readonly lookups: string[] = [];
  readonly placed = new Map<string, VoiceCallResult>();
  readonly delivered: { callId: string; ok: boolean; error?: string }[] = [];
  private readonly inFlight = new Map<string, Promise<VoiceCallResult>>();
  /** Resolves when every ending scripted so far has been delivered (or refused). */
  private deliveries: Promise<unknown>[] = [];
  next: (request: VoiceCallRequest) => Promise<VoiceCallResult> = async () => ({
    outcome: 'completed',
    providerDisposition: 'completed',
    providerCallId: 'provider-1',
    answeredAt: new Date('2026-01-01T00:00:05.000Z'),
    endedAt: new Date('2026-01-01T00:01:06.000Z'),
    durationMs: 61_000,
    transcript: 'Agent: hello',
    recordingUrl: null,
  });
  /** Scripts the provider refusing the call (placeCall rejects with it; nothing is dialled). */
  accept: ((request: VoiceCallRequest) => Promise<void>) | null = null;
  /** Overrides the provider's record (e.g. a call still in progress, or a lookup that fails). */
  lookup: ((callId: string) => Promise<VoiceCallStatus>) | null = null;

  constructor(readonly events: VoiceCallEvents = new VoiceCallEvents()) {
    super();
  }

  async placeCall(request: VoiceCallRequest): Promise<PlacedCall> {
    if (this.inFlight.has(request.callId)) return { providerCallId: `scripted-${request.callId}` };
    if (this.accept) await this.accept(request);
    this.requests.push(request);
    const call = Promise.resolve().then(() => this.next(request));
    this.inFlight.set(request.callId, call);
    this.deliveries.push(
      call.then(
        async (result) => {
          this.placed.set(request.callId, result);
          const event = { type: 'ended' as const, provider: this.name, eventId: `${request.callId}:ended`, callId: request.callId, providerCallId: result.providerCallId, at: result.endedAt, result };
          await this.events.deliver(event).then(
            () => this.delivered.push({ callId: request.callId, ok: true }),
            (error: Error) => this.delivered.push({ callId: request.callId, ok: false, error: error.message }),
          );
        },
        () => this.inFlight.delete(request.callId), // a rejected script: the call never happened
      ),
    );
    return { providerCallId: `scripted-${request.callId}` };
  }

  async lookupCall(callId: string): Promise<VoiceCallStatus> {
    this.lookups.push(callId);
    if (this.lookup) return this.lookup(callId);
    const result = this.placed.get(callId);
    if (result) return { state: 'ended', result };
    return this.inFlight.has(callId) ? { state: 'in_progress' } : { state: 'unknown' };
  }

  /** Waits until every call placed so far has ended and its event was delivered. */
  async settled(): Promise<void> {
    while (this.deliveries.length > 0) {
      const pending = this.deliveries;
      this.deliveries = [];
      await Promise.all(pending);
    }
  }
}
