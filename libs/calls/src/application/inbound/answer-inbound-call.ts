import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AgentDirectory, callVariables } from '@outreach/agents';
import { InboundCampaigns } from '@outreach/campaigns';
import { AppConfig, Clock, normalisePhone, Outbox, OutboxJob, UnitOfWork } from '@outreach/core';
import { InboundCallRequest, IncomingCall, PhoneNumberDirectory, VoiceProvider, WebhookReply } from '@outreach/telephony';
import { CallLog } from '../call-log';
import { CallsJob, CallsQueue } from '../calls.ports';

const FALLBACK_MAX_CALL_SECS = 600;

/** How a declined call ends (decisions.md 36.4): nobody answered it; recorded, never billed. */
export const DECLINED_DISPOSITION = 'declined_no_live_campaign';

/** The worker job that lets the agent take an admitted inbound call (payload: the request, dates as ISO strings). */
export interface TakeInboundPayload {
  request: Omit<InboundCallRequest, 'incoming'> & { incoming: Omit<IncomingCall, 'at'> & { at: string } };
}

export function takeInboundJob(request: InboundCallRequest): OutboxJob {
  const payload: TakeInboundPayload = { request: { ...request, incoming: { ...request.incoming, at: request.incoming.at.toISOString() } } };
  return { queue: CallsQueue.Calls, name: CallsJob.TakeInbound, payload: { ...payload }, jobId: `take-inbound-${request.callId}` };
}

export interface InboundAnswer {
  /** The call recorded for the offer (null for a number that is not ours: nothing to record it under). */
  callId: string | null;
  /** taken: an INBOUND campaign's agent answers it; declined: no live campaign (or no readable caller id). */
  decision: 'taken' | 'declined';
  campaignId: string | null;
  /** What the provider's webhook is told (Twilio's TwiML), or null. */
  reply: WebhookReply | null;
}

/**
 * An inbound call offered by a provider's webhook (decisions.md 36.3, 36.4). The number dialled
 * names the workspace; its RUNNING INBOUND campaign takes the call: the caller becomes (or is found
 * as) the campaign's contact, deduplicated by phone, with an attempt in flight; a Call of kind
 * `inbound` is recorded with the campaign and contact, the campaign counts one more received call,
 * and an outbox job lets the agent take it in the worker — in one transaction. The call then goes
 * as an outbound one does: its events move it, its ending is settled by the engine (billing,
 * analysis, the lead result). Without a live campaign the call is declined politely: recorded
 * (ENDED, no_answer, `declined_no_live_campaign`), not billed. An offer delivered again (the same
 * provider event id) changes nothing and is answered as the first one was.
 */
@Injectable()
export class AnswerInboundCall {
  private readonly logger = new Logger('AnswerInboundCall');

  constructor(
    private readonly numbers: PhoneNumberDirectory,
    private readonly inbound: InboundCampaigns,
    private readonly agents: AgentDirectory,
    private readonly callLog: CallLog,
    private readonly voice: VoiceProvider,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async execute(incoming: IncomingCall): Promise<InboundAnswer> {
    const number = await this.numbers.findAnyByE164(incoming.to);
    if (!number) {
      this.logger.warn(`inbound call ${incoming.providerCallId} to ${incoming.to}, which is no number of ours: declined`);
      return { callId: null, decision: 'declined', campaignId: null, reply: this.voice.declineCall(incoming) };
    }
    const caller = normalisePhone(incoming.from);
    const admitted = await this.uow.run(async () => {
      const earlier = await this.callLog.eventCallId(incoming.provider, incoming.eventId);
      if (earlier) return { state: 'again' as const, callId: earlier };
      const now = this.clock.now();
      const route = caller ? await this.inbound.route(number.id) : null;
      const callId = randomUUID();
      const base = { id: callId, workspaceId: number.workspaceId, fromNumber: incoming.from, toNumber: number.e164, kind: 'inbound' as const };
      if (!route) {
        await this.callLog.start({ ...base, campaignId: null, contactId: null, agentId: number.inboundAgentId, attemptNumber: 0 });
        await this.callLog.finish(callId, {
          outcome: 'no_answer',
          providerDisposition: DECLINED_DISPOSITION,
          providerCallId: incoming.providerCallId,
          answeredAt: null,
          endedAt: now,
          durationMs: 0,
          transcript: null,
          recordingUrl: null,
        });
        await this.callLog.noteEvent({ provider: incoming.provider, eventId: incoming.eventId, callId, type: 'incoming' });
        return { state: 'declined' as const, callId };
      }
      const agent = route.agentId ? await this.agents.find(route.workspaceId, route.agentId) : null;
      const maxDurationSecs = agent?.maxCallDurationSecs ?? FALLBACK_MAX_CALL_SECS;
      const deadlineAt = new Date(now.getTime() + (maxDurationSecs + this.config.reaperGraceSeconds) * 1000);
      const contact = await this.inbound.admit(route, { phone: caller!, callId, now, deadlineAt });
      await this.callLog.start({ ...base, campaignId: route.campaignId, contactId: contact.contactId, agentId: route.agentId, attemptNumber: contact.attempts });
      await this.callLog.noteEvent({ provider: incoming.provider, eventId: incoming.eventId, callId, type: 'incoming' });
      const request: InboundCallRequest = {
        callId,
        workspaceId: route.workspaceId,
        incoming,
        agentId: route.agentId,
        maxDurationSecs,
        // The system variables of decisions.md 16.21, from what the call knows (the campaign's zone and names are the agent's to ask).
        variables: callVariables({}, { agentName: agent?.name ?? '', callerPhone: number.e164, contactName: '', contactPhone: caller!, campaignName: '', timezone: 'UTC', workspaceName: '', now }),
      };
      await this.outbox.enqueue(takeInboundJob(request));
      await this.inbound.countReceivedCall(route.campaignId);
      return { state: 'taken' as const, callId, request, campaignId: route.campaignId };
    });
    if (admitted.state === 'declined') return { callId: admitted.callId, decision: 'declined', campaignId: null, reply: this.voice.declineCall(incoming) };
    if (admitted.state === 'taken') {
      return { callId: admitted.callId, decision: 'taken', campaignId: admitted.campaignId, reply: await this.voice.replyToIncoming(admitted.request) };
    }
    // The provider offers a call it offered before: answered as the first time.
    const call = await this.callLog.find(admitted.callId);
    if (!call?.campaignId) return { callId: admitted.callId, decision: 'declined', campaignId: null, reply: this.voice.declineCall(incoming) };
    const reply = await this.voice.replyToIncoming({ callId: call.id, workspaceId: call.workspaceId, incoming, agentId: call.agentId, maxDurationSecs: FALLBACK_MAX_CALL_SECS, variables: {} });
    return { callId: call.id, decision: 'taken', campaignId: call.campaignId, reply };
  }
}

/** The worker's half (job calls/take-inbound): the agent takes the admitted call; its events follow. */
@Injectable()
export class TakeInboundCall {
  constructor(private readonly voice: VoiceProvider) {}

  async execute(payload: TakeInboundPayload): Promise<{ providerCallId: string }> {
    const { request } = payload;
    return this.voice.answerCall({ ...request, incoming: { ...request.incoming, at: new Date(request.incoming.at) } });
  }
}
