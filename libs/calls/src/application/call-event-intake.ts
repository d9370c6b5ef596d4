import { Injectable, OnModuleInit } from '@nestjs/common';
import { VoiceCallEvent, VoiceCallEvents } from '@outreach/telephony';
import { CallLog } from './call-log';
import { PlaceTestCall } from './place-test-call';

export type CallEventReport = 'duplicate' | 'unknown_call' | 'applied' | 'unchanged' | 'not_mine';

/**
 * The calls module's part of a provider event (decisions.md 16.24), in every process that has the
 * module: progress (ringing, answered) moves the Call forward; a test call's ending ends it. A
 * campaign call's ending is the engine's (it settles the attempt), so it is left alone here. An
 * event id seen before is skipped; one applied now is noted.
 */
@Injectable()
export class CallEventIntake implements OnModuleInit {
  constructor(
    private readonly events: VoiceCallEvents,
    private readonly callLog: CallLog,
    private readonly testCalls: PlaceTestCall,
  ) {}

  onModuleInit(): void {
    this.events.subscribe(async (event) => {
      await this.receive(event);
    });
  }

  async receive(event: VoiceCallEvent): Promise<CallEventReport> {
    if (await this.callLog.eventApplied(event.provider, event.eventId)) return 'duplicate';
    const call = await this.callLog.find(event.callId);
    if (!call) return 'unknown_call';
    let changed: boolean;
    if (event.type === 'ended') {
      if (call.kind !== 'test') return 'not_mine';
      await this.testCalls.end(call.id, event.result);
      changed = true;
    } else {
      changed = await this.callLog.progress(call.id, event.type, { providerCallId: event.providerCallId, at: event.at });
    }
    await this.callLog.noteEvent({ provider: event.provider, eventId: event.eventId, callId: call.id, type: event.type });
    return changed ? 'applied' : 'unchanged';
  }
}
