import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { GroupedRuns } from '@outreach/core';
import { VoiceCallEvent, VoiceCallEvents } from '@outreach/telephony';
import { CallLog } from './call-log';
import { CallView } from './calls.ports';
import { PlaceTestCall } from './place-test-call';

export type CallEventReport = 'duplicate' | 'unknown_call' | 'applied' | 'unchanged' | 'not_mine';

/** Events applied together at most, and groups in flight per process (decisions.md 16.43, as 16.31's endings). */
const GROUP_MAX = 100;
const GROUPS_IN_FLIGHT = 2;

/**
 * The calls module's part of a provider event (decisions.md 16.24), in every process that has the
 * module: progress (ringing, answered) moves the Call forward; a test call's ending ends it. A
 * campaign call's ending is the engine's (it settles the attempt), so it is left alone here. An
 * event id seen before is skipped; one applied now is noted.
 *
 * Events that arrive while others are being applied are applied together (GroupedRuns, decisions.md
 * 16.43): the group's event ids checked in one statement per provider, its calls read in one, each
 * step's calls moved in one transaction, the applied events noted in one. Two events of one call
 * never share a group; a Call only moves forward, so events applied out of order (as lone events
 * always could be) leave it at its furthest step. A group that cannot be applied is applied event
 * by event, as a lone event is.
 */
@Injectable()
export class CallEventIntake implements OnModuleInit {
  private readonly logger = new Logger('CallEventIntake');
  private readonly groups = new GroupedRuns<VoiceCallEvent, CallEventReport>((events) => this.applyGroup(events), {
    maxGroup: GROUP_MAX,
    concurrency: GROUPS_IN_FLIGHT,
    keyOf: (event) => event.callId,
  });

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

  receive(event: VoiceCallEvent): Promise<CallEventReport> {
    return this.groups.submit(event);
  }

  private async applyGroup(events: VoiceCallEvent[]): Promise<Array<PromiseSettledResult<CallEventReport>>> {
    if (events.length > 1) {
      let together: Together | null = null;
      try {
        together = await this.applyTogether(events);
      } catch (error) {
        this.logger.warn(`${events.length} call events could not be applied together (${(error as Error).message}): applying each on its own`);
      }
      if (together) {
        const { reports, alone } = together;
        // After the group is on record: a test call's ending that fails is its own failure, never the group's.
        const own = await Promise.allSettled(alone.map((i) => this.applyAlone(events[i])));
        const results: Array<PromiseSettledResult<CallEventReport>> = reports.map((value) => ({ status: 'fulfilled' as const, value: value as CallEventReport }));
        alone.forEach((i, k) => (results[i] = own[k]));
        return results;
      }
    }
    return Promise.allSettled(events.map((event) => this.applyAlone(event)));
  }

  /**
   * The usual path for several events, in one go; rejects as a whole (nothing noted). A test call's
   * ending (rare) is not applied here: its index is answered in `alone`, for applyAlone once the
   * group is on record.
   */
  private async applyTogether(events: readonly VoiceCallEvent[]): Promise<Together> {
    const reports: Array<CallEventReport | undefined> = new Array(events.length);
    const alone: number[] = [];
    const applied = new Set<number>();
    for (const provider of new Set(events.map((e) => e.provider))) {
      const mine = events.flatMap((e, i) => (e.provider === provider ? [i] : []));
      const seen = await this.callLog.appliedEvents(provider, mine.map((i) => events[i].eventId));
      for (const i of mine) if (seen.has(events[i].eventId)) reports[i] = 'duplicate';
    }
    const fresh = events.flatMap((e, i) => (reports[i] ? [] : [i]));
    const calls = new Map((fresh.length > 0 ? await this.callLog.findMany(fresh.map((i) => events[i].callId)) : []).map((c) => [c.id, c]));
    const steps = new Map<'ringing' | 'answered', number[]>();
    for (const i of fresh) {
      const event = events[i];
      const call = calls.get(event.callId);
      if (!call) reports[i] = 'unknown_call';
      else if (event.type === 'ended') {
        if (call.kind === 'test') alone.push(i);
        else reports[i] = 'not_mine';
      } else steps.set(event.type, [...(steps.get(event.type) ?? []), i]);
    }
    for (const [step, indexes] of steps) {
      const moved = await this.callLog.progressMany(
        indexes.map((i) => ({ callId: events[i].callId, providerCallId: events[i].providerCallId, at: events[i].at })),
        step,
      );
      indexes.forEach((i, k) => {
        reports[i] = moved[k] ? 'applied' : 'unchanged';
        applied.add(i);
      });
    }
    if (applied.size > 0) await this.callLog.noteEvents([...applied].map((i) => ({ provider: events[i].provider, eventId: events[i].eventId, callId: events[i].callId, type: events[i].type })));
    return { reports, alone };
  }

  /** One event on its own: every case, as the intake has always applied it. */
  private async applyAlone(event: VoiceCallEvent): Promise<CallEventReport> {
    if (await this.callLog.eventApplied(event.provider, event.eventId)) return 'duplicate';
    const call: CallView | null = await this.callLog.find(event.callId);
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

/** What applyTogether answers: a report per event, but for the indexes in `alone` (applied one by one after it). */
interface Together {
  reports: ReadonlyArray<CallEventReport | undefined>;
  alone: number[];
}
