import { createHash } from 'node:crypto';
import { CampaignJob, CampaignQueue } from '@outreach/campaigns';
import type { OutboxJob } from '@outreach/core';
import type { VoiceCallResult } from '@outreach/telephony';
import type { DeferredSettlement } from './engine.ports';

/**
 * The engine's queues and jobs, in one place (payloads carry ids only):
 * - campaigns / dispatch `{ campaignId }`: claim due contacts of a RUNNING campaign, start attempts;
 * - campaigns / reap `{}`: the repeatable tick (reaper + sweep of RUNNING campaigns);
 * - attempts / attempt `{ contactId, attemptSeq }`: place one call and record its outcome;
 * - attempts / message-batch `{ attempts: [{ contactId, attemptSeq }] }`: send the message legs claimed together (decisions.md 47.1);
 * - attempts / settle `SettlePayload`: record an ended call's outcome the attempt could not store;
 * - attempts / poll `{ callId }`: written only by versions before the live-call sweep (decisions.md 16.44), asked once;
 * - attempts / message-check `{ contactId, attemptSeq }`: written only by versions before the maintenance settled overdue legs (decisions.md 47.17), settles one leg;
 * - outreach / reply-rules `ReplyRulesPayload`: judge a contact's reply by its campaigns' outreach rules (decisions.md 34.4);
 * - outreach / remessage-contact `RemessagePayload` (written by campaigns): send the message leg to one contact again (34.6);
 * The analysis of a finished call is the calls module's job (`analyseCallJob` from '@outreach/calls').
 */
export enum EngineQueue {
  Campaigns = CampaignQueue.Campaigns,
  Attempts = 'attempts',
  Outreach = CampaignQueue.Outreach,
}

export enum EngineJob {
  Dispatch = CampaignJob.Dispatch,
  Attempt = 'attempt',
  MessageBatch = 'message-batch',
  Settle = 'settle',
  Poll = 'poll',
  MessageCheck = 'message-check',
  ReplyRules = 'reply-rules',
  RemessageContact = CampaignJob.RemessageContact,
}

/** A reply to one of our messages, as MessageEvents delivered it (the text travels: replies are short). */
export interface ReplyRulesPayload {
  /** Our message the reply answers. */
  messageId: string;
  provider: string;
  /** The provider's id of the reply. */
  replyId: string;
  text: string;
  /** When the reply was sent (ISO). */
  at: string;
}

/** One job per reply: the id is a digest of provider and reply id (BullMQ refuses ':' in ids; provider ids may hold one). */
export function replyRulesJob(payload: ReplyRulesPayload): OutboxJob {
  const digest = createHash('sha256').update(`${payload.provider}\u0000${payload.replyId}`).digest('hex').slice(0, 40);
  return { queue: EngineQueue.Outreach, name: EngineJob.ReplyRules, payload: { ...payload }, jobId: `reply-${digest}` };
}

/** A poll written by a version before the live-call sweep (decisions.md 16.44): asked once. */
export interface PollPayload {
  callId: string;
}

export interface DispatchPayload {
  campaignId: string;
}

export interface AttemptPayload {
  contactId: string;
  /** The contact's attempt sequence number (never reset, unlike the per-run attempt count). */
  attemptSeq: number;
}

/** A deferred settlement as job data: the outcome travels with it (dates as ISO strings). */
export interface SettlePayload {
  contactId: string;
  attemptSeq: number;
  callId: string;
  campaignId: string;
  result: Omit<VoiceCallResult, 'answeredAt' | 'endedAt'> & { answeredAt: string | null; endedAt: string };
}

export function settleJobId(callId: string): string {
  return `settle-${callId}`;
}

export function toSettlePayload(settlement: DeferredSettlement): SettlePayload {
  const { result } = settlement;
  return { ...settlement, result: { ...result, answeredAt: result.answeredAt?.toISOString() ?? null, endedAt: result.endedAt.toISOString() } };
}

export function fromSettlePayload(payload: SettlePayload): DeferredSettlement {
  const { result } = payload;
  return {
    contactId: payload.contactId,
    attemptSeq: payload.attemptSeq,
    callId: payload.callId,
    campaignId: payload.campaignId,
    result: { ...result, answeredAt: result.answeredAt === null ? null : new Date(result.answeredAt), endedAt: new Date(result.endedAt) },
  };
}

/** BullMQ refuses ids with ':' and all-digit ids; these are neither. */
export function attemptJobId(contactId: string, attemptSeq: number): string {
  return `attempt-${contactId}-${attemptSeq}`;
}

export function attemptJob(contactId: string, attemptSeq: number): OutboxJob {
  const payload: AttemptPayload = { contactId, attemptSeq };
  return { queue: EngineQueue.Attempts, name: EngineJob.Attempt, payload: { ...payload }, jobId: attemptJobId(contactId, attemptSeq) };
}

/** Message legs claimed together are sent together, up to this many per job (decisions.md 47.1, 47.11). */
export const MESSAGE_BATCH_SIZE = 200;

export interface MessageBatchPayload {
  attempts: AttemptPayload[];
}

/** A contact and attempt belong to one batch, so the first of them names the job. */
export function messageBatchJob(attempts: readonly AttemptPayload[]): OutboxJob {
  const payload: MessageBatchPayload = { attempts: attempts.map(({ contactId, attemptSeq }) => ({ contactId, attemptSeq })) };
  return { queue: EngineQueue.Attempts, name: EngineJob.MessageBatch, payload: { ...payload }, jobId: `mbatch-${attempts[0].contactId}-${attempts[0].attemptSeq}` };
}

/**
 * The jobs for claimed contacts: an attempt job per call, and the message legs in batches of
 * MESSAGE_BATCH_SIZE (a lone message leg is an attempt job like a call).
 */
export function attemptJobs(contacts: ReadonlyArray<{ id: string; attemptSeq: number; leg: string }>): OutboxJob[] {
  const jobs = contacts.filter((c) => c.leg === 'VOICE').map((c) => attemptJob(c.id, c.attemptSeq));
  const messages = contacts.filter((c) => c.leg !== 'VOICE').map((c) => ({ contactId: c.id, attemptSeq: c.attemptSeq }));
  for (let i = 0; i < messages.length; i += MESSAGE_BATCH_SIZE) {
    const batch = messages.slice(i, i + MESSAGE_BATCH_SIZE);
    jobs.push(batch.length === 1 ? attemptJob(batch[0].contactId, batch[0].attemptSeq) : messageBatchJob(batch));
  }
  return jobs;
}

/** A dispatch wake-up written with the change that frees a slot (an attempt's outcome). */
export function dispatchJob(campaignId: string): OutboxJob {
  const payload: DispatchPayload = { campaignId };
  return { queue: EngineQueue.Campaigns, name: EngineJob.Dispatch, payload: { ...payload } };
}

/** Scheduled dispatch ticks: one job per campaign and wake-up instant, so ticks never pile up. */
export function dispatchTickJobId(campaignId: string, wakeAtMs: number): string {
  return `dispatch-${campaignId}-${wakeAtMs}`;
}
