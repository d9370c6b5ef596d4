import { VoiceCallRequest, VoiceCallResult, VoiceProvider } from '../application/voice-provider.port';

/** A voice provider that answers what the spec scripts (default: a completed 61 s call) and keeps every request. */
export class ScriptedVoiceProvider extends VoiceProvider {
  readonly requests: VoiceCallRequest[] = [];
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

  placeCall(request: VoiceCallRequest): Promise<VoiceCallResult> {
    this.requests.push(request);
    return this.next(request);
  }
}
