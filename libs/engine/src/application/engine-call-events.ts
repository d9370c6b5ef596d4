import { Injectable, OnModuleInit } from '@nestjs/common';
import { VoiceCallEvent, VoiceCallEvents } from '@outreach/telephony';
import { CallEndingReport, CallEndings } from './call-endings';

export type EngineEventReport = { state: 'not_an_ending' } | CallEndingReport;

/**
 * The engine's part of a provider event (decisions.md 16.24): a campaign call's ending settles its
 * attempt (CallEndings.endEvent). Progress and test calls are the calls module's
 * (CallEventIntake). An event id applied before is skipped; one settled is noted, and so is a
 * deferred one (its settle job carries it). A failure rejects, so the sender delivers it again.
 */
@Injectable()
export class EngineCallEvents implements OnModuleInit {
  constructor(
    private readonly events: VoiceCallEvents,
    private readonly endings: CallEndings,
  ) {}

  onModuleInit(): void {
    this.events.subscribe(async (event) => {
      await this.receive(event);
    });
  }

  receive(event: VoiceCallEvent): Promise<EngineEventReport> {
    if (event.type !== 'ended') return Promise.resolve({ state: 'not_an_ending' });
    return this.endings.endEvent(event);
  }
}
