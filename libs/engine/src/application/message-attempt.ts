import { Injectable, Logger } from '@nestjs/common';
import { CallLog } from '@outreach/calls';
import {
  AttemptContact,
  AttemptOutcomeUpdate,
  CampaignExecution,
  ContactLeg,
  ContactStatus,
  ContactTimeline,
  currentLeg,
  ExecutionCampaign,
  isMessageLeg,
  nextLeg,
  numberToDial,
  TimelineEntry,
} from '@outreach/campaigns';
import { Clock, isAppError, Outbox, OutboxJob, ShortLivedCache, UnitOfWork } from '@outreach/core';
import { LegMessage, MessageLegs, MessageView, SendMessage, SendMessageInput, SendOutcome } from '@outreach/messaging';
import { leadFinalJob } from '@outreach/results';
import { emailAddressOf, legMessageKey, replyWindowMs, templateForMetric } from '../domain/message-legs';
import { nextMessageStep } from '../domain/message-retry-policy';
import { DispatchScheduler } from './engine.ports';

/**
 * How long a sent message may go without a report (delivered, read, failed) before its leg counts
 * it as sent and moves on (decisions.md 33). The sandbox reports at once; real providers within seconds.
 */
export const MESSAGE_REPORT_PATIENCE_MS = 5 * 60_000;
/** A follow-up whose call is still being analysed (whatsappTemplateByMetric) looks again after this long… */
export const ANALYSIS_WAIT_MS = 15_000;
/** …for at most this long after the call ended, then goes with the outreach template. */
export const ANALYSIS_PATIENCE_MS = 10 * 60_000;
/** Claimed attempts still send while the campaign is paused or out of credit: in-flight attempts finish. */
const SENDABLE_STATUSES = new Set(['RUNNING', 'PAUSED', 'CREDIT_EXHAUSTED']);

export type MessageAttemptReport =
  | { state: 'stale' | 'released' | 'in_flight' | 'waiting_for_report' | 'waiting_for_analysis' }
  | { state: 'settled'; status: ContactStatus; outcome: string };

/** What became of the leg's message, as the leg sees it. */
type LegResult =
  | { kind: 'reached'; outcome: 'sent' | 'delivered' | 'read' | 'replied' }
  | { kind: 'undelivered' | 'transient'; reason: string }
  /** Nothing was sent and nothing will be: opted out, no address, no sender, a template that cannot be sent. */
  | { kind: 'not_sent'; reason: string };

/**
 * One message attempt of a WHATSAPP or EMAIL leg (decisions.md 33), the way ExecuteAttempt is a
 * call: the dispatcher claimed the contact (reservation, windows, recipient hours, caps, DNC and
 * wallet are the dispatcher's, shared with calls); this sends ONE templated message through
 * messaging's SendMessage under a key that names the leg's send (`legMessageKey`), so a re-run —
 * the attempt job again after a crash, the report that the message was delivered, the maintenance,
 * the reaper — never sends twice: SendMessage answers the message of that key. The contact stays
 * IN_PROGRESS until the provider's report (or MESSAGE_REPORT_PATIENCE_MS without one), then moves
 * on: its next leg, a retry (nextMessageStep), or its final status. Billing is SendMessage's (one
 * TARIFF_MESSAGE_MINOR debit in the transaction that records SENT).
 */
@Injectable()
export class MessageAttempt {
  private readonly logger = new Logger('MessageAttempt');
  private readonly whatsappSenders = new ShortLivedCache<string | null>(1000);
  private readonly emailDefaults = new ShortLivedCache<{ senderId: string; templateId: string } | null>(1000);

  constructor(
    private readonly execution: CampaignExecution,
    private readonly send: SendMessage,
    private readonly legs: MessageLegs,
    private readonly callLog: CallLog,
    private readonly scheduler: DispatchScheduler,
    private readonly timeline: ContactTimeline,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * Sends the leg's message (or finds it sent) and settles the contact when its outcome is known.
   * `final`: the report's patience is over (the maintenance, 47.17; the reaper): a message still only SENT counts as sent.
   * `read`: the contact (IN_PROGRESS on this attempt) and campaign the caller has just read in its
   * own transaction (ExecuteAttempt), so they are not read again; the settlement re-checks the
   * contact under its lock either way, and the message's key keeps a re-run from sending twice.
   */
  async execute(
    contactId: string,
    attemptSeq: number,
    options: { final?: boolean; read?: { contact: AttemptContact; campaign: ExecutionCampaign } } = {},
  ): Promise<MessageAttemptReport> {
    const contact = options.read?.contact ?? (await this.execution.lockContact(contactId));
    if (!contact || contact.id !== contactId || contact.status !== 'IN_PROGRESS' || contact.attemptSeq !== attemptSeq) return { state: 'stale' };
    const campaign = options.read?.campaign ?? (await this.execution.campaign(contact.campaignId));
    if (!campaign) return { state: 'stale' };
    const leg = currentLeg(campaign.channel, contact.leg);
    if (!isMessageLeg(leg)) return { state: 'stale' };
    const key = legMessageKey(contact);
    // Only a campaign that stopped sending needs to know whether the message was written already.
    const existing = SENDABLE_STATUSES.has(campaign.status) ? null : await this.legs.byKey(campaign.workspaceId, leg, key);
    if (!existing && !SENDABLE_STATUSES.has(campaign.status)) {
      await this.uow.run(() => this.execution.release(contactId, attemptSeq));
      return { state: 'released' };
    }
    let result: LegResult | 'in_flight' | 'waiting_for_analysis';
    let answered: MessageView | null = null;
    try {
      ({ result, message: answered } = await this.sendOnce(contact, campaign, leg, key, existing));
    } catch (error) {
      // The checks refused (nothing written, nothing sent): the leg ends with the code as its reason.
      if (!isAppError(error)) throw error;
      result = { kind: 'not_sent', reason: error.code === 'contact_opted_out' ? 'opted_out' : error.code };
    }
    if (result === 'in_flight') return { state: 'in_flight' };
    if (result === 'waiting_for_analysis') return this.postpone(contact, campaign);
    // SendMessage answered the message as it recorded it (reports applied before it included); only
    // a reply needs one more read. Without an answer (the checks refused), the key says (44.8).
    const message: LegMessage | null = answered
      ? { messageId: answered.id, status: answered.status as LegMessage['status'], failureReason: answered.failureReason, createdAt: new Date(answered.createdAt), replied: await this.legs.replied(answered.id) }
      : await this.legs.byKey(campaign.workspaceId, leg, key);
    const settled = result.kind === 'reached' && message ? this.fromStatus(message, options.final === true) : result;
    if (settled === null) {
      // Accepted, no report yet: the worker's maintenance settles the leg once the provider's patience is over (47.17).
      return { state: 'waiting_for_report' };
    }
    const [report] = await this.settleMany([{ target: { contactId, campaign, current: (locked) => locked.attemptSeq === attemptSeq }, result: settled, message }]);
    return report;
  }


  /**
   * A provider's report about a message of a leg (through MessageEvents; messaging's intake applied
   * it first): the leg settles from the message as it now stands. The message was written, so
   * nothing is sent again and SendMessage is not asked (decisions.md 44.6); a message not yet
   * reached (still QUEUED: its sender is recording it) is left to that sender's execute. The
   * contact and its campaign are read once, in the settlement's transaction, where the contact's
   * lock shows whether this message is still its leg's (decisions.md 44.9).
   *
   * A batch of reports (MessageEvents.subscribeMany) settles its legs in one transaction
   * (decisions.md 47.4). Answers a report per message that is a leg's.
   */
  async reportedMany(messageIds: readonly string[]): Promise<Map<string, MessageAttemptReport>> {
    const reports = new Map<string, MessageAttemptReport>();
    const settling: Settling[] = [];
    for (const message of await this.legs.keysOf(messageIds)) {
      const parsed = parseLegKey(message.idempotencyKey);
      if (!parsed) continue;
      const result = this.fromStatus(message, false);
      if (result === null) {
        reports.set(message.messageId, { state: 'waiting_for_report' });
        continue;
      }
      const key = message.idempotencyKey;
      settling.push({ target: { contactId: parsed.contactId, current: (locked) => legMessageKey(locked) === key }, result, message });
    }
    const settled = await this.settleMany(settling);
    settling.forEach((item, i) => reports.set(item.message!.messageId, settled[i]));
    return reports;
  }

  /**
   * `execute` for the message legs of a batch (ExecuteAttempt.executeMessages, decisions.md 47.1):
   * each contact IN_PROGRESS on its attempt and its campaign sending, as the caller just read them.
   * The messages go through SendMessage.sendMany; the legs whose outcome is known are settled in
   * one transaction, the others wait for their reports (or the maintenance, 47.17). An error that
   * is not a refusal is thrown once the others are settled: the job runs again, and finds them settled.
   */
  async executeMany(items: ReadonlyArray<{ contact: AttemptContact; campaign: ExecutionCampaign }>): Promise<MessageAttemptReport[]> {
    const reports: MessageAttemptReport[] = new Array(items.length);
    const sends: Array<{ index: number; input: SendMessageInput }> = [];
    const settling: Array<{ index: number; item: Settling }> = [];
    const waiting: number[] = [];
    for (const [i, { contact, campaign }] of items.entries()) {
      const leg = currentLeg(campaign.channel, contact.leg) as 'WHATSAPP' | 'EMAIL';
      const prepared = await this.inputFor(contact, campaign, leg, legMessageKey(contact), null);
      if (prepared === 'waiting_for_analysis') reports[i] = await this.postpone(contact, campaign);
      else if ('input' in prepared) sends.push({ index: i, input: prepared.input });
      else settling.push({ index: i, item: { target: this.targetOf(contact, campaign), result: prepared.result, message: null } });
    }
    const answers = await this.send.sendMany(sends.map((s) => s.input));
    const replied = await this.legs.repliedAmong(answers.flatMap((a) => ('result' in a ? [a.result.message.id] : [])));
    let failure: unknown = null;
    for (const [k, answer] of answers.entries()) {
      const { index, input } = sends[k];
      const { contact, campaign } = items[index];
      const leg = input.channel;
      if ('error' in answer) {
        if (!isAppError(answer.error)) {
          failure ??= answer.error;
          reports[index] = { state: 'in_flight' };
          continue;
        }
        // The checks refused (nothing written, nothing sent): the leg ends with the code as its reason.
        const result: LegResult = { kind: 'not_sent', reason: answer.error.code === 'contact_opted_out' ? 'opted_out' : answer.error.code };
        settling.push({ index, item: { target: this.targetOf(contact, campaign), result, message: await this.legs.byKey(campaign.workspaceId, leg, input.idempotencyKey) } });
        continue;
      }
      const result = this.legResultOf(answer.result.outcome);
      if (result === 'in_flight') {
        reports[index] = { state: 'in_flight' };
        continue;
      }
      const m = answer.result.message;
      const message: LegMessage = { messageId: m.id, status: m.status as LegMessage['status'], failureReason: m.failureReason, createdAt: new Date(m.createdAt), replied: replied.has(m.id) };
      const settled = result.kind === 'reached' ? this.fromStatus(message, false) : result;
      if (settled === null) waiting.push(index);
      else settling.push({ index, item: { target: this.targetOf(contact, campaign), result: settled, message } });
    }
    // Accepted, no report yet: the worker's maintenance settles these legs once the provider's patience is over (47.17).
    for (const i of waiting) reports[i] = { state: 'waiting_for_report' };
    const settled = await this.settleMany(settling.map((s) => s.item));
    settling.forEach((s, k) => (reports[s.index] = settled[k]));
    if (failure !== null) throw failure;
    return reports;
  }

  /** The contact of an attempt, still IN_PROGRESS on it. */
  private targetOf(contact: AttemptContact, campaign: ExecutionCampaign): SettleTarget {
    return { contactId: contact.id, campaign, current: (locked) => locked.attemptSeq === contact.attemptSeq };
  }

  /** Sends (or replays) the leg's message; `existing`: the message of this key, when written before. */
  private async sendOnce(
    contact: AttemptContact,
    campaign: ExecutionCampaign,
    leg: 'WHATSAPP' | 'EMAIL',
    key: string,
    existing: LegMessage | null,
  ): Promise<{ result: LegResult | 'in_flight' | 'waiting_for_analysis'; message: MessageView | null }> {
    const prepared = await this.inputFor(contact, campaign, leg, key, existing);
    if (prepared === 'waiting_for_analysis') return { result: prepared, message: null };
    if (!('input' in prepared)) return { result: prepared.result, message: null };
    const { outcome, message } = await this.send.send(prepared.input);
    return { result: this.legResultOf(outcome), message };
  }

  /**
   * What to send for the leg: SendMessage's input, or why nothing is sent (no sender, no template,
   * no address), or that a follow-up waits for its call's analysis.
   */
  private async inputFor(
    contact: AttemptContact,
    campaign: ExecutionCampaign,
    leg: 'WHATSAPP' | 'EMAIL',
    key: string,
    existing: LegMessage | null,
  ): Promise<{ input: SendMessageInput } | { result: LegResult } | 'waiting_for_analysis'> {
    const fields = { ...contact.fields, name: contact.name ?? contact.fields.name, phone: numberToDial(contact) };
    const variables = { contact: fields, campaign: this.campaignVariables(campaign, contact) };
    if (leg === 'WHATSAPP') {
      const senderId = await this.whatsappSenders.get(campaign.workspaceId, () => this.legs.whatsappSender(campaign.workspaceId));
      if (!senderId && !(existing ?? (await this.legs.byKey(campaign.workspaceId, leg, key)))) return { result: { kind: 'not_sent', reason: 'no_whatsapp_sender' } };
      const template = existing ? campaign.settings.whatsappOutreachTemplateId : await this.whatsappTemplate(contact, campaign);
      if (template === 'wait') return 'waiting_for_analysis';
      if (!template) return { result: { kind: 'not_sent', reason: 'no_outreach_template' } };
      return { input: { workspaceId: campaign.workspaceId, channel: 'WHATSAPP', senderId: senderId ?? '', templateId: template, to: numberToDial(contact), variables, idempotencyKey: key } };
    }
    const to = emailAddressOf(contact.fields);
    if (!to) return { result: { kind: 'not_sent', reason: 'no_email_address' } };
    const defaults = await this.emailDefaults.get(campaign.workspaceId, () => this.legs.emailDefaults(campaign.workspaceId));
    if (!defaults && !(existing ?? (await this.legs.byKey(campaign.workspaceId, leg, key)))) return { result: { kind: 'not_sent', reason: 'no_email_sender' } };
    return { input: { workspaceId: campaign.workspaceId, channel: 'EMAIL', senderId: defaults?.senderId ?? '', templateId: defaults?.templateId ?? '', to, variables, idempotencyKey: key } };
  }

  /** The leg's result from what SendMessage answered. */
  private legResultOf(outcome: SendOutcome): LegResult | 'in_flight' {
    switch (outcome) {
      case 'sent':
        return { kind: 'reached', outcome: 'sent' };
      case 'failed':
        return { kind: 'undelivered', reason: 'refused' };
      case 'retry_later':
        return { kind: 'transient', reason: 'provider_unavailable' };
      default:
        return 'in_flight';
    }
  }

  /** The leg's result from its message's status; null while a sent message waits for its report. */
  private fromStatus(message: LegMessage, final: boolean): LegResult | null {
    if (message.replied) return { kind: 'reached', outcome: 'replied' };
    switch (message.status) {
      case 'DELIVERED':
        return { kind: 'reached', outcome: 'delivered' };
      case 'READ':
        return { kind: 'reached', outcome: 'read' };
      case 'FAILED':
        return { kind: 'undelivered', reason: message.failureReason ?? 'undelivered' };
      default:
        return final ? { kind: 'reached', outcome: 'sent' } : null;
    }
  }

  /**
   * The template of a WhatsApp leg: with whatsappTemplateByMetric, a follow-up of an analysed call
   * takes the template its evaluation names; while that analysis runs it waits (ANALYSIS_PATIENCE_MS
   * at most). Otherwise the campaign's outreach template.
   */
  private async whatsappTemplate(contact: AttemptContact, campaign: ExecutionCampaign): Promise<string | null | 'wait'> {
    const outreach = campaign.settings.whatsappOutreachTemplateId;
    const mapping = campaign.settings.whatsappTemplateByMetric;
    if (!mapping || !contact.followupCallId) return outreach;
    const call = await this.callLog.find(contact.followupCallId);
    if (!call) return outreach;
    if (call.analysisStatus === 'PENDING') {
      const endedAt = call.endedAt ? Date.parse(call.endedAt) : 0;
      if (this.clock.now().getTime() - endedAt < ANALYSIS_PATIENCE_MS) return 'wait';
      return outreach;
    }
    return templateForMetric(mapping, call.evaluation) ?? outreach;
  }

  /** The campaign's variables: its variableMap (variable → contact column), as calls get them. */
  private campaignVariables(campaign: ExecutionCampaign, contact: AttemptContact): Record<string, string> {
    const mapped: Record<string, string> = {};
    for (const [variable, column] of Object.entries(campaign.variableMap)) {
      const value = contact.fields[column];
      if (value !== undefined) mapped[variable] = value;
    }
    return mapped;
  }

  /** The follow-up waits for its call's analysis: due again shortly, its counters untouched. */
  private async postpone(contact: AttemptContact, campaign: ExecutionCampaign): Promise<MessageAttemptReport> {
    const now = this.clock.now();
    await this.uow.run(async () => {
      const locked = await this.execution.lockContact(contact.id);
      if (!locked || locked.status !== 'IN_PROGRESS' || locked.attemptSeq !== contact.attemptSeq) return;
      await this.execution.recordOutcome(contact.id, contact.attemptSeq, {
        status: 'RETRY_SCHEDULED',
        nextAttemptAt: new Date(now.getTime() + ANALYSIS_WAIT_MS),
        lastOutcome: 'waiting_for_analysis',
        lastAttemptAt: now,
        incompleteRetry: false,
        nextNumber: false,
        connectedPhone: null,
      });
    });
    await this.wake(campaign);
    return { state: 'waiting_for_analysis' };
  }

  /**
   * Where each contact goes after its leg's message, in one transaction for the batch (decisions.md
   * 47.4): the contacts locked in id order, each campaign read once, the timeline and the result
   * jobs (API leads that ended) written together. Only the current attempt moves a contact; a
   * contact named twice in a batch moves once. One wake-up per campaign afterwards.
   */
  private async settleMany(items: readonly Settling[]): Promise<MessageAttemptReport[]> {
    if (items.length === 0) return [];
    const woken = new Map<string, ExecutionCampaign>();
    const reports = await this.uow.run(async (): Promise<MessageAttemptReport[]> => {
      const now = this.clock.now();
      const locked = new Map((await this.execution.lockContacts(items.map((item) => item.target.contactId))).map((c) => [c.id, c]));
      const campaigns = new Map<string, ExecutionCampaign | null>();
      const decided = new Map<string, { index: number; campaign: ExecutionCampaign; timeline: TimelineEntry[]; update: AttemptOutcomeUpdate }>();
      const out: MessageAttemptReport[] = items.map(() => ({ state: 'stale' }));
      for (const [index, { target, result, message }] of items.entries()) {
        const contact = locked.get(target.contactId);
        if (!contact || decided.has(contact.id) || contact.status !== 'IN_PROGRESS' || !target.current(contact)) continue;
        let campaign = target.campaign ?? campaigns.get(contact.campaignId);
        if (campaign === undefined) campaigns.set(contact.campaignId, (campaign = await this.execution.campaign(contact.campaignId)));
        const leg = campaign ? currentLeg(campaign.channel, contact.leg) : null;
        if (!campaign || !leg || !isMessageLeg(leg)) continue;
        decided.set(contact.id, { index, campaign, ...this.decide(contact, campaign, leg, result, message, now) });
      }
      // One statement moves them all (its WHERE re-checks each is still IN_PROGRESS on its attempt).
      const moved = await this.execution.recordOutcomes(
        [...decided].map(([contactId, d]) => ({ contactId, attemptSeq: locked.get(contactId)!.attemptSeq, update: d.update })),
      );
      const entries: TimelineEntry[] = [];
      const jobs: OutboxJob[] = [];
      for (const [contactId, { index, campaign, timeline, update }] of decided) {
        if (!moved.has(contactId)) continue;
        entries.push(...timeline);
        if (update.status !== 'RETRY_SCHEDULED' && campaign.source === 'API') jobs.push(leadFinalJob(contactId));
        woken.set(campaign.id, campaign);
        out[index] = { state: 'settled', status: update.status, outcome: update.lastOutcome };
      }
      await this.timeline.record(...entries);
      await this.outbox.enqueue(...jobs);
      return out;
    });
    for (const campaign of woken.values()) await this.wake(campaign);
    return reports;
  }

  /** Where one contact goes after its leg's message (the rules of decisions.md 33), and its timeline events. */
  private decide(
    locked: AttemptContact,
    campaign: ExecutionCampaign,
    leg: 'WHATSAPP' | 'EMAIL',
    result: LegResult,
    message: LegMessage | null,
    now: Date,
  ): { update: AttemptOutcomeUpdate; timeline: TimelineEntry[] } {
    const messageId = message?.messageId ?? null;
    // The leg's windows count from its first message's creation (before the provider was asked).
    const legAt = locked.messageLegAt ?? message?.createdAt ?? now;
    const sends = locked.messageSends + (result.kind === 'transient' ? 0 : 1);
    const base = { leg: leg as ContactLeg, messageSends: sends, messageTransient: 0, messageLegAt: legAt, followupCallId: locked.followupCallId, switchLeg: false };
    const following = nextLeg(campaign.channel, leg);
    let status: 'COMPLETED' | 'FAILED' | 'RETRY_SCHEDULED';
    let nextAttemptAt: Date | null = null;
    let outcome: string;
    let legState = { ...base, messageOutcome: null as string | null };
    if (result.kind === 'reached') {
      outcome = result.outcome;
      legState.messageOutcome = outcome;
      if (following === 'VOICE') {
        // WHATSAPP_THEN_VOICE: the call waits for the reply window; a reply by then means no call (ExecuteAttempt).
        status = 'RETRY_SCHEDULED';
        nextAttemptAt = new Date(legAt.getTime() + replyWindowMs(campaign.settings.outreachRules));
        legState = { ...legState, leg: following, switchLeg: true };
      } else {
        status = 'COMPLETED';
      }
    } else {
      const step =
        result.kind === 'not_sent'
          ? ({ retry: false, reason: result.reason } as const)
          : nextMessageStep(campaign.settings, { failure: result.kind, sends, transient: locked.messageTransient + 1, legAt, now });
      outcome = result.kind === 'not_sent' ? result.reason : `message_${result.kind}`;
      if (step.retry) {
        status = 'RETRY_SCHEDULED';
        nextAttemptAt = new Date(now.getTime() + step.delaySeconds * 1000);
        legState = { ...legState, messageOutcome: outcome, messageTransient: result.kind === 'transient' ? locked.messageTransient + 1 : 0 };
      } else if (following === 'VOICE') {
        // Nobody can answer a message that never arrived: the call is due at once.
        status = 'RETRY_SCHEDULED';
        nextAttemptAt = now;
        legState = { ...legState, messageOutcome: step.reason, leg: following, switchLeg: true };
      } else {
        status = 'FAILED';
        outcome = step.reason === 'undelivered' || step.reason === 'provider_unavailable' || step.reason === 'retry_window_passed' ? `message_${step.reason}` : step.reason;
        legState = { ...legState, messageOutcome: step.reason };
      }
    }
    const timeline: TimelineEntry[] = [{ contactId: locked.id, type: 'attempt_ended', detail: { attempt: locked.attempts, leg, messageId, outcome, status } }];
    if (nextAttemptAt) timeline.push({ contactId: locked.id, type: 'retry_scheduled', detail: { at: nextAttemptAt.toISOString(), why: legState.leg !== leg ? 'next_leg' : outcome } });
    return {
      update: { status, nextAttemptAt, lastOutcome: outcome, lastAttemptAt: now, incompleteRetry: false, nextNumber: false, connectedPhone: null, legState },
      timeline,
    };
  }

  private async wake(campaign: ExecutionCampaign): Promise<void> {
    await this.scheduler.wakeNow(campaign.id).catch((error: Error) => this.logger.warn(`dispatch wake-up failed: ${error.message}`));
  }
}

/** One leg to settle: its contact, what became of its message, and the message. */
interface Settling {
  target: SettleTarget;
  result: LegResult;
  message: LegMessage | null;
}

/** The contact a settlement moves: it must still be IN_PROGRESS on the same attempt (`current`). */
interface SettleTarget {
  contactId: string;
  /** The campaign as the caller read it; read in the settlement's transaction otherwise. */
  campaign?: ExecutionCampaign;
  current: (locked: AttemptContact) => boolean;
}

/** The contact a leg's message key names (`legMessageKey`), or null for a key the engine did not write. */
export function parseLegKey(key: string): { contactId: string } | null {
  const match = /^leg-([0-9a-f-]{36})-\d+$/.exec(key);
  return match ? { contactId: match[1] } : null;
}
