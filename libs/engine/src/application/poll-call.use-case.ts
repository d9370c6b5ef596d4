import { Injectable } from '@nestjs/common';
import { CallLog } from '@outreach/calls';
import { AppConfig, Clock, RetryLater } from '@outreach/core';
import { VoiceProvider } from '@outreach/telephony';
import { CallEndingReport, CallEndings } from './call-endings';

export type PollReport = { state: 'over' | 'unknown_call' } | CallEndingReport;

/**
 * The poll (attempts/poll, decisions.md 16.24): the provider's events for a live call are overdue
 * (lost webhook, or the process whose timers would have sent them died). Asks the provider: an
 * ended call is settled with what it says; a call still going on is asked about again after
 * CALL_POLL_INTERVAL_MS (RetryLater: the job waits without spending an attempt); a call the
 * provider does not know although it accepted it is ended as lost (a carrier failure, retried
 * like one). A call that ended meanwhile needs nothing.
 */
@Injectable()
export class PollCall {
  constructor(
    private readonly callLog: CallLog,
    private readonly voice: VoiceProvider,
    private readonly endings: CallEndings,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async execute(callId: string): Promise<PollReport> {
    const call = await this.callLog.find(callId);
    if (!call) return { state: 'unknown_call' };
    if (call.status === 'ENDED' || call.status === 'FAILED') return { state: 'over' };
    const status = await this.voice.lookupCall(callId);
    if (status.state === 'in_progress') throw new RetryLater(this.config.callPollIntervalMs, `call ${callId} is still going on at the provider`);
    if (status.state === 'ended') return this.endings.end(callId, status.result);
    return this.endings.end(callId, {
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
