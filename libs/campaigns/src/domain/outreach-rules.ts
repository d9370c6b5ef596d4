import { AppError, ValidationIssue } from '@outreach/core';
import { CampaignChannel, hasMessageLeg } from './campaign-kinds';
import type { OutreachRule, OutreachRuleCondition } from './campaign-settings';

/**
 * Outreach rules (decisions.md 34.3): what the service does when something happens to a campaign
 * contact's conversation. The contract shows one value of each set (trigger MESSAGE_REPLY, match
 * ALL, action HAND_OFF, condition kind ai_interested); the sets below are ours, each value
 * implemented. A new trigger, condition or action is one edit here plus its evaluation.
 */
export const OUTREACH_RULE_TRIGGERS = ['MESSAGE_REPLY'] as const;
export type OutreachRuleTrigger = (typeof OUTREACH_RULE_TRIGGERS)[number];

export const OUTREACH_RULE_MATCHES = ['ALL', 'ANY'] as const;
export const OUTREACH_RULE_ACTIONS = ['HAND_OFF'] as const;
export type OutreachRuleAction = (typeof OUTREACH_RULE_ACTIONS)[number];

/**
 * `ai_interested` / `ai_not_interested`: the analysis port judges the reply (its `describe` is the
 * question put to it); `any_reply`: true for every reply.
 */
export const OUTREACH_CONDITION_KINDS = ['ai_interested', 'ai_not_interested', 'any_reply'] as const;
export type OutreachConditionKind = (typeof OUTREACH_CONDITION_KINDS)[number];

/** Conditions the analysis port has to judge. */
export const AI_CONDITION_KINDS: readonly OutreachConditionKind[] = ['ai_interested', 'ai_not_interested'];

export const MAX_OUTREACH_RULES = 10;
export const MAX_RULE_CONDITIONS = 10;

/**
 * Channels whose contacts can answer, so rules have something to act on: the WhatsApp legs (an
 * e-mail reply reaches no intake of the service). Others refuse rules (400 campaign_channel_has_no_rules).
 */
export function channelHasRules(channel: CampaignChannel): boolean {
  return hasMessageLeg(channel);
}

/** Every condition of a rule: `condition` first, then `conditions`. */
export function conditionsOf(rule: OutreachRule): OutreachRuleCondition[] {
  return [rule.condition, ...rule.conditions];
}

/**
 * Checks rules against the campaign's channel: rules on a channel without replies are refused
 * (campaign_channel_has_no_rules); an empty list clears them on any channel. A MESSAGE_REPLY rule
 * fires on the reply itself, so its `afterDays` must be 0 (decisions.md 34.3).
 */
export function assertOutreachRules(channel: CampaignChannel, rules: readonly OutreachRule[]): void {
  if (rules.length === 0) return;
  if (!channelHasRules(channel)) {
    throw new AppError('campaign_channel_has_no_rules', { message: `a ${channel} campaign has no outreach rules (its contacts cannot reply)` });
  }
  const issues: ValidationIssue[] = [];
  rules.forEach((rule, i) => {
    if (rule.trigger === 'MESSAGE_REPLY' && rule.afterDays !== 0) {
      issues.push({ path: `outreachRules.${i}.afterDays`, message: 'a MESSAGE_REPLY rule acts on the reply itself: afterDays must be 0' });
    }
  });
  if (issues.length > 0) throw new AppError('invalid_body', { message: issues.map((x) => x.message).join('; '), issues });
}

/** What a reply was judged to be: condition kind → true/false. */
export type ConditionVerdicts = Partial<Record<OutreachConditionKind, boolean>>;

/** The AI conditions the rules for `trigger` need judged (none: nothing to ask the analysis port). */
export function aiConditionsNeeded(rules: readonly OutreachRule[], trigger: OutreachRuleTrigger): OutreachRuleCondition[] {
  const needed = new Map<string, OutreachRuleCondition>();
  for (const rule of rules.filter((r) => r.trigger === trigger)) {
    for (const c of conditionsOf(rule)) {
      if ((AI_CONDITION_KINDS as readonly string[]).includes(c.kind) && !needed.has(c.kind)) needed.set(c.kind, c);
    }
  }
  return [...needed.values()];
}

function holds(condition: OutreachRuleCondition, verdicts: ConditionVerdicts): boolean {
  if (condition.kind === 'any_reply') return true;
  return verdicts[condition.kind as OutreachConditionKind] === true;
}

/** The action of the first rule for `trigger` whose conditions hold (ALL: every one; ANY: one), or null. */
export function firstMatchingAction(
  rules: readonly OutreachRule[],
  trigger: OutreachRuleTrigger,
  verdicts: ConditionVerdicts,
): { action: OutreachRuleAction; ruleIndex: number } | null {
  for (const [ruleIndex, rule] of rules.entries()) {
    if (rule.trigger !== trigger) continue;
    const conditions = conditionsOf(rule);
    const ok = rule.match === 'ANY' ? conditions.some((c) => holds(c, verdicts)) : conditions.every((c) => holds(c, verdicts));
    if (ok) return { action: rule.action as OutreachRuleAction, ruleIndex };
  }
  return null;
}
