import { Injectable, OnModuleInit } from '@nestjs/common';
import { CallLog } from '@outreach/calls';
import { VoiceCallEvent, VoiceCallEvents } from '@outreach/telephony';
import { CallEndingReport, CallEndings } from './call-endings';

export type EngineEventReport = { state: 'duplicate' | 'not_an_ending' } | CallEndingReport;

/**
 * The engine's part of a provider event (decisions.md 16.24): a campaign call's ending settles its
 * attempt (CallEndings). Progress and test calls are the calls module's (CallEventIntake). An
 * event id applied before is skipped; one settled now is noted; a deferred one is noted too (its
 * settle job carries it). A failure rejects, so the sender delivers it again.
 */
@Injectable()
export class EngineCallEvents implements OnModuleInit {
  constructor(
    private readonly events: VoiceCallEvents,
    private readonly callLog: CallLog,
    private readonly endings: CallEndings,
  ) {}

  onModuleInit(): void {
    this.events.subscribe(async (event) => {
      await this.receive(event);
    });
  }

  async receive(event: VoiceCallEvent): Promise<EngineEventReport> {
    if (event.type !== 'ended') return { state: 'not_an_ending' };
    if (await this.callLog.eventApplied(event.provider, event.eventId)) return { state: 'duplicate' };
    const report = await this.endings.end(event.callId, event.result);
    if (report.state !== 'not_an_attempt') {
      await this.callLog.noteEvent({ provider: event.provider, eventId: event.eventId, callId: event.callId, type: event.type });
    }
    return report;
  }
}
