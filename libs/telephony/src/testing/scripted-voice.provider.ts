import { VoiceCallRequest, VoiceCallResult, VoiceCallStatus, VoiceProvider } from '../application/voice-provider.port';

/**
 * A voice provider that answers what the spec scripts (default: a completed 61 s call) and keeps
 * every request. Like a real provider it remembers each call id it placed: placing one again
 * answers the first call (one request, no second dial); lookupCall answers 'in_progress' until the
 * scripted answer resolves, then 'ended' with it (or what `lookup` scripts), and 'unknown' for a
 * call id never placed.
 */
export class ScriptedVoiceProvider extends VoiceProvider {
  readonly requests: VoiceCallRequest[] = [];
  readonly lookups: string[] = [];
  readonly placed = new Map<string, VoiceCallResult>();
  private readonly inFlight = new Map<string, Promise<VoiceCallResult>>();
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
  /** Overrides the provider's record (e.g. a call still in progress, or a lookup that fails). */
  lookup: ((callId: string) => Promise<VoiceCallStatus>) | null = null;

  placeCall(request: VoiceCallRequest): Promise<VoiceCallResult> {
    const known = this.inFlight.get(request.callId);
    if (known) return known;
    this.requests.push(request);
    const call = this.next(request).then((result) => {
      this.placed.set(request.callId, result);
      return result;
    });
    this.inFlight.set(request.callId, call);
    call.catch(() => this.inFlight.delete(request.callId)); // a rejected request never reached the provider
    return call;
  }

  async lookupCall(callId: string): Promise<VoiceCallStatus> {
    this.lookups.push(callId);
    if (this.lookup) return this.lookup(callId);
    const result = this.placed.get(callId);
    if (result) return { state: 'ended', result };
    return this.inFlight.has(callId) ? { state: 'in_progress' } : { state: 'unknown' };
  }
}
