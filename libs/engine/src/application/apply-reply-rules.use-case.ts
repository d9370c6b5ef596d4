import { Injectable, Logger } from '@nestjs/common';
import { AnalysisProviderError, CallAnalyser } from '@outreach/calls';
import {
  aiConditionsNeeded,
  ConditionVerdicts,
  ContactHandOffs,
  firstMatchingAction,
  OutreachConditionKind,
  OutreachRule,
  ReplyCandidate,
} from '@outreach/campaigns';
import { Clock, Outbox, RetryLater, UnitOfWork } from '@outreach/core';
import { MessageQueries } from '@outreach/messaging';
import { leadFinalJob } from '@outreach/results';
import { contactOfMessageKey } from '../domain/message-legs';
import { dispatchJob, ReplyRulesPayload } from './engine-jobs';

/** A judge that cannot answer for now is asked again this often… */
const JUDGE_RETRY_MS = 30_000;
/** …for this long after the reply; then the reply is left unjudged (logged). */
const JUDGE_PATIENCE_MS = 60 * 60_000;

/** What an AI condition asks when its `describe` is empty. */
const DEFAULT_QUESTIONS: Partial<Record<OutreachConditionKind, string>> = {
  ai_interested: 'Does the contact say they are interested?',
  ai_not_interested: 'Does the contact say they are not interested?',
};

export interface ReplyRulesReport {
  state: 'no_conversation' | 'no_rules' | 'judged';
  handedOff: string[];
}

/**
 * Outreach rules on a reply (decisions.md 34.3-34.4): the campaign contacts the reply's sender is in
 * (campaigns with a WhatsApp leg and rules), each campaign's MESSAGE_REPLY rules judged in order —
 * AI conditions through the analysis port (calls' CallAnalyser, the same port that evaluates call
 * metrics: each condition a yes/no metric whose prompt is its `describe`) — and the first rule that
 * matches acts. HAND_OFF moves the contact to HAND_OFF (campaigns' contact table) in one
 * transaction with its timeline event, an API lead's result job when the hand-off ends the lead,
 * and a dispatch wake-up (the campaign may be done). A contact with an attempt in flight is
 * handed off once that attempt has settled (RetryLater).
 */
@Injectable()
export class ApplyReplyRules {
  private readonly logger = new Logger('ApplyReplyRules');

  constructor(
    private readonly messages: MessageQueries,
    private readonly handOffs: ContactHandOffs,
    private readonly analyser: CallAnalyser,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(payload: ReplyRulesPayload): Promise<ReplyRulesReport> {
    const party = await this.messages.party(payload.messageId);
    if (!party || party.channel !== 'WHATSAPP') return { state: 'no_conversation', handedOff: [] };
    // The reply answers the message of one contact (a leg's or a remessage's key names it): only that
    // contact's campaign judges it, not every campaign the phone is in (decisions.md 33.18). A message
    // the engine did not send (no contact in its key) is matched by the phone, as before.
    const sentFor = contactOfMessageKey(party.idempotencyKey);
    const all = await this.handOffs.candidates(party.workspaceId, party.address);
    const candidates = sentFor ? all.filter((c) => c.contactId === sentFor) : all;
    if (candidates.length === 0) return { state: 'no_rules', handedOff: [] };

    const handedOff: string[] = [];
    let waitForAttempt = false;
    for (const candidate of candidates) {
      const verdicts = await this.judge(candidate.outreachRules, payload);
      if (verdicts === null) continue;
      const match = firstMatchingAction(candidate.outreachRules, 'MESSAGE_REPLY', verdicts);
      if (!match) continue;
      // HAND_OFF is the one action (OUTREACH_RULE_ACTIONS).
      const done = await this.handOff(candidate, payload, match.ruleIndex, verdicts);
      if (done === 'in_flight') waitForAttempt = true;
      if (done === 'handed_off') handedOff.push(candidate.contactId);
    }
    if (waitForAttempt) throw new RetryLater(5_000, `reply ${payload.replyId}: a contact's attempt is in flight; hand-off after it settles`);
    return { state: 'judged', handedOff };
  }

  private async handOff(candidate: ReplyCandidate, payload: ReplyRulesPayload, ruleIndex: number, verdicts: ConditionVerdicts) {
    return this.uow.run(async () => {
      const result = await this.handOffs.handOff(candidate.contactId, {
        rule: ruleIndex,
        trigger: 'MESSAGE_REPLY',
        messageId: payload.messageId,
        replyId: payload.replyId,
        verdicts,
      });
      if (result.outcome !== 'handed_off') return result.outcome;
      if (candidate.source === 'API' && result.becameFinal) await this.outbox.enqueue(leadFinalJob(candidate.contactId));
      if (candidate.campaignStatus === 'RUNNING') await this.outbox.enqueue(dispatchJob(candidate.campaignId));
      return result.outcome;
    });
  }

  /** The AI conditions the rules need, judged in one analysis of the reply; null when it cannot be judged. */
  private async judge(rules: readonly OutreachRule[], payload: ReplyRulesPayload): Promise<ConditionVerdicts | null> {
    const needed = aiConditionsNeeded(rules, 'MESSAGE_REPLY');
    if (needed.length === 0) return {};
    try {
      const result = await this.analyser.analyse({
        transcript: `Contact: ${payload.text}`,
        extractionKeys: [],
        metrics: needed.map((c) => ({
          key: c.kind,
          label: c.kind,
          allowedValues: ['yes', 'no'],
          prompt: c.describe.trim() || DEFAULT_QUESTIONS[c.kind as OutreachConditionKind] || c.kind,
        })),
      });
      return Object.fromEntries(needed.map((c) => [c.kind, result.evaluation[c.kind] === 'yes']));
    } catch (error) {
      if (!(error instanceof AnalysisProviderError)) throw error;
      const age = this.clock.now().getTime() - new Date(payload.at).getTime();
      if (error.retryable && age < JUDGE_PATIENCE_MS) throw new RetryLater(JUDGE_RETRY_MS, `reply ${payload.replyId}: the analysis port failed (${error.reason})`);
      this.logger.warn(`reply ${payload.replyId} left unjudged: the analysis port failed (${error.reason})`);
      return null;
    }
  }
}
