import { Injectable } from '@nestjs/common';
import { CallLog, CallView } from '@outreach/calls';
import { Clock } from '@outreach/core';
import { VoiceProvider } from '@outreach/telephony';
import { CallEndingReport, CallEndings } from './call-endings';

export type PollReport = { state: 'over' | 'unknown_call' | 'in_progress' } | CallEndingReport;

/**
 * Asks the provider about one live call whose events are overdue (lost webhook, or the process whose
 * timers would have sent them died): an ended call is settled with what the provider says; a call
 * the provider does not know although it accepted it is ended as lost (a carrier failure, retried
 * like one); a call still going on is left as it is. A call that ended meanwhile needs nothing.
 * The live-call sweep asks it (decisions.md 16.44); so does an `attempts`/`poll` job written by a
 * version before it (16.24), once.
 */
@Injectable()
export class PollCall {
  constructor(
    private readonly callLog: CallLog,
    private readonly voice: VoiceProvider,
    private readonly endings: CallEndings,
    private readonly clock: Clock,
  ) {}

  async execute(callId: string): Promise<PollReport> {
    const call = await this.callLog.find(callId);
    if (!call) return { state: 'unknown_call' };
    return this.ask(call);
  }

  /** `execute` for a call as just read. */
  async ask(call: Pick<CallView, 'id' | 'status'>): Promise<PollReport> {
    if (call.status === 'ENDED' || call.status === 'FAILED') return { state: 'over' };
    const status = await this.voice.lookupCall(call.id);
    if (status.state === 'in_progress') return { state: 'in_progress' };
    if (status.state === 'ended') return this.endings.end(call.id, status.result);
    return this.endings.end(call.id, {
      outcome: 'carrier_failure',
      providerDisposition: 'lost_by_provider',
      providerCallId: '',
      answeredAt: null,
      endedAt: this.clock.now(),
      durationMs: 0,
      transcript: null,
      recordingUrl: null,
    });
  }
}
