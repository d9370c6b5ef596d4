import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, Clock, UnitOfWork } from '@outreach/core';
import type { CallOutcome, VoiceCallResult } from '@outreach/telephony';
import { Call, CallKind, CallProgress } from '../domain/call';
import { CallRepository, CallView } from './calls.ports';

export interface StartCallInput {
  workspaceId: string;
  campaignId: string | null;
  contactId: string | null;
  agentId: string | null;
  fromNumber: string | null;
  toNumber: string;
  attemptNumber: number;
  kind: CallKind;
  idempotencyKey?: string | null;
  /** The call's id when the caller needs it before the call exists (an inbound call's contact names it); a new UUID otherwise. */
  id?: string;
}

export function toCallView(call: Call): CallView {
  const p = call.toProps();
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    id: p.id,
    workspaceId: p.workspaceId,
    campaignId: p.campaignId,
    contactId: p.contactId,
    agentId: p.agentId,
    fromNumber: p.fromNumber,
    toNumber: p.toNumber,
    kind: p.kind,
    status: p.status,
    outcome: p.outcome as CallOutcome | null,
    providerDisposition: p.providerDisposition,
    attemptNumber: p.attemptNumber,
    startedAt: p.startedAt.toISOString(),
    answeredAt: iso(p.answeredAt),
    endedAt: iso(p.endedAt),
    durationMs: p.durationMs,
    transcript: p.transcript,
    recordingUrl: p.recordingUrl,
    providerAnalysis: p.providerAnalysis,
    extraction: p.extraction,
    evaluation: p.evaluation,
    analysisStatus: p.analysisStatus,
    createdAt: p.createdAt.toISOString(),
  };
}

/**
 * The record of every call placed (campaign attempts and test calls). Both methods join the
 * caller's UnitOfWork transaction when there is one, so the engine writes a call's ending, the
 * contact's next status and the wallet debit atomically.
 */
@Injectable()
export class CallLog {
  constructor(
    private readonly calls: CallRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** A new call, QUEUED (the provider does not have it yet), started now. */
  async start(input: StartCallInput): Promise<{ callId: string }> {
    const call = Call.start({ ...input, id: input.id ?? randomUUID(), now: this.clock.now() });
    await this.calls.insert(call);
    return { callId: call.id };
  }

  /** start() of several campaign calls in one statement (decisions.md 16.32); ids in the order of `inputs`. */
  async startMany(inputs: readonly Omit<StartCallInput, 'idempotencyKey'>[]): Promise<Array<{ callId: string }>> {
    const now = this.clock.now();
    const calls = inputs.map((input) => Call.start({ ...input, idempotencyKey: null, id: input.id ?? randomUUID(), now }));
    await this.calls.insertMany(calls);
    return calls.map((call) => ({ callId: call.id }));
  }

  /**
   * Forgets a call the provider refused before taking it (a synchronous route answers the refusal
   * instead: the request changed nothing, and a retry with its Idempotency-Key can place it).
   */
  discard(callId: string): Promise<boolean> {
    return this.calls.discardQueued(callId);
  }

  /**
   * Records how the call ended: ENDED, or FAILED for carrier_failure. Idempotent: finishing a
   * finished call returns it unchanged.
   */
  async finish(callId: string, result: VoiceCallResult): Promise<CallView> {
    return (await this.record(callId, result)).call;
  }

  /** finish(), also telling whether this call ended now (`finishedNow`) or had ended before. */
  record(callId: string, result: VoiceCallResult): Promise<{ call: CallView; finishedNow: boolean }> {
    return this.uow.run(async () => {
      const call = await this.calls.findAnyById(callId, { lock: true });
      if (!call) throw new AppError('call_not_found', { message: `no call ${callId}` });
      const finishedNow = call.finish(result);
      if (finishedNow) await this.calls.update(call);
      return { call: toCallView(call), finishedNow };
    });
  }

  /**
   * record() of several endings in two statements (decisions.md 16.31): the calls locked in id
   * order, then the ones that ended now written together. Answers in the order of `endings`; a
   * call named twice ends once (the first ending; the second answers it unchanged). 404
   * call_not_found when any call is unknown (nothing is written).
   */
  recordMany(endings: ReadonlyArray<{ callId: string; result: VoiceCallResult }>): Promise<Array<{ call: CallView; finishedNow: boolean }>> {
    return this.uow.run(async () => {
      const calls = new Map((await this.calls.findAnyByIds(endings.map((e) => e.callId), { lock: true })).map((call) => [call.id, call]));
      const missing = endings.find((e) => !calls.has(e.callId));
      if (missing) throw new AppError('call_not_found', { message: `no call ${missing.callId}` });
      const finished: Call[] = [];
      const answers = endings.map(({ callId, result }) => {
        const call = calls.get(callId)!;
        const finishedNow = call.finish(result);
        if (finishedNow) finished.push(call);
        return { call, finishedNow };
      });
      await this.calls.updateMany(finished);
      return answers.map(({ call, finishedNow }) => ({ call: toCallView(call), finishedNow }));
    });
  }

  /**
   * The provider's progress on a live call (accepted with its id, ringing, answered). Only forward:
   * false when it changed nothing (a late, repeated or unknown call's event).
   */
  progress(callId: string, step: CallProgress, event: { providerCallId?: string | null; at?: Date | null } = {}): Promise<boolean> {
    return this.uow.run(async () => {
      const call = await this.calls.findAnyById(callId, { lock: true });
      if (!call || !call.progress(step, event)) return false;
      await this.calls.update(call);
      return true;
    });
  }

  /**
   * progress() of several calls to the same step in two statements (decisions.md 16.32): the calls
   * locked in id order, then the ones that moved written together. Answers, in order, whether each
   * moved; an unknown call did not.
   */
  progressMany(steps: ReadonlyArray<{ callId: string; providerCallId?: string | null; at?: Date | null }>, step: CallProgress): Promise<boolean[]> {
    return this.uow.run(async () => {
      const calls = new Map((await this.calls.findAnyByIds(steps.map((s) => s.callId), { lock: true })).map((call) => [call.id, call]));
      const moved = new Set<Call>();
      const answers = steps.map(({ callId, providerCallId, at }) => {
        const call = calls.get(callId);
        const changed = call !== undefined && call.progress(step, { providerCallId, at });
        if (changed) moved.add(call);
        return changed;
      });
      await this.calls.updateMany([...moved]);
      return answers;
    });
  }

  /** Any workspace's call by id (the worker and provider events know only ids). */
  async find(callId: string): Promise<CallView | null> {
    const call = await this.calls.findAnyById(callId);
    return call ? toCallView(call) : null;
  }

  /** find() of several calls, in id order; unknown ids are left out. */
  async findMany(callIds: readonly string[]): Promise<CallView[]> {
    return (await this.calls.findAnyByIds(callIds)).map(toCallView);
  }

  /** Outcomes of the campaign's latest ended calls placed since `since`, newest first (the circuit breaker's window). */
  recentOutcomes(campaignId: string, since: Date, limit: number, fromNumbers: readonly string[] | null = null): Promise<string[]> {
    return this.calls.recentOutcomes(campaignId, since, limit, fromNumbers);
  }

  /** The call a provider event was applied to, or null. */
  eventCallId(provider: string, eventId: string): Promise<string | null> {
    return this.calls.eventCallId(provider, eventId);
  }

  /** Whether this provider event was applied already (decisions.md 16.24). */
  eventApplied(provider: string, eventId: string): Promise<boolean> {
    return this.calls.hasEvent(provider, eventId);
  }

  /** Which of a provider's event ids were applied already (decisions.md 16.33). */
  appliedEvents(provider: string, eventIds: readonly string[]): Promise<Set<string>> {
    return this.calls.appliedEvents(provider, eventIds);
  }

  /** noteEvent of several events in one statement (in the caller's transaction when there is one). */
  noteEvents(events: ReadonlyArray<{ provider: string; eventId: string; callId: string; type: string }>): Promise<void> {
    return this.calls.addEvents(events);
  }

  /** Notes a provider event as applied; false when it had been noted before. */
  noteEvent(event: { provider: string; eventId: string; callId: string; type: string }): Promise<boolean> {
    return this.calls.addEvent(event);
  }

  async get(workspaceId: string, callId: string): Promise<CallView | null> {
    const call = await this.calls.findById(workspaceId, callId);
    return call ? toCallView(call) : null;
  }
}
