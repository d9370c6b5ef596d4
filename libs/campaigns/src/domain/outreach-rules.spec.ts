import { AppError } from '@outreach/core';
import { CAMPAIGN_CHANNELS } from './campaign-kinds';
import type { OutreachRule } from './campaign-settings';
import { aiConditionsNeeded, assertOutreachRules, channelHasRules, firstMatchingAction } from './outreach-rules';

const rule = (overrides: Partial<OutreachRule> = {}): OutreachRule => ({
  trigger: 'MESSAGE_REPLY',
  afterDays: 0,
  condition: { kind: 'ai_interested', describe: 'wants more' },
  conditions: [],
  match: 'ALL',
  action: 'HAND_OFF',
  ...overrides,
});

function codeOf(fn: () => void): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof AppError ? error.code : 'other';
  }
}

describe('outreach rules', () => {
  it('only the WhatsApp legs have rules', () => {
    expect(CAMPAIGN_CHANNELS.filter(channelHasRules)).toEqual(['WHATSAPP', 'VOICE_THEN_WHATSAPP', 'WHATSAPP_THEN_VOICE']);
  });

  it('refuses rules on a channel without replies, and afterDays on a MESSAGE_REPLY rule; [] is fine anywhere', () => {
    expect(codeOf(() => assertOutreachRules('VOICE', [rule()]))).toBe('campaign_channel_has_no_rules');
    expect(codeOf(() => assertOutreachRules('EMAIL', [rule()]))).toBe('campaign_channel_has_no_rules');
    expect(codeOf(() => assertOutreachRules('CUSTOM', [rule()]))).toBe('campaign_channel_has_no_rules');
    expect(codeOf(() => assertOutreachRules('VOICE', []))).toBeNull();
    expect(codeOf(() => assertOutreachRules('WHATSAPP', [rule()]))).toBeNull();
    expect(codeOf(() => assertOutreachRules('WHATSAPP', [rule(), rule({ afterDays: 3 })]))).toBe('invalid_body');
  });

  it('ALL needs every condition, ANY one; any_reply always holds; the first matching rule acts', () => {
    const both = rule({ conditions: [{ kind: 'ai_not_interested', describe: '' }] });
    expect(firstMatchingAction([both], 'MESSAGE_REPLY', { ai_interested: true, ai_not_interested: false })).toBeNull();
    expect(firstMatchingAction([both], 'MESSAGE_REPLY', { ai_interested: true, ai_not_interested: true })).toEqual({ action: 'HAND_OFF', ruleIndex: 0 });
    const either = rule({ match: 'ANY', conditions: [{ kind: 'ai_not_interested', describe: '' }] });
    expect(firstMatchingAction([either], 'MESSAGE_REPLY', { ai_interested: false, ai_not_interested: true })).toEqual({ action: 'HAND_OFF', ruleIndex: 0 });
    expect(firstMatchingAction([either], 'MESSAGE_REPLY', { ai_interested: false, ai_not_interested: false })).toBeNull();
    // A condition left unjudged does not hold.
    expect(firstMatchingAction([rule()], 'MESSAGE_REPLY', {})).toBeNull();
    const anyReply = rule({ condition: { kind: 'any_reply', describe: '' } });
    expect(firstMatchingAction([rule(), anyReply], 'MESSAGE_REPLY', { ai_interested: false })).toEqual({ action: 'HAND_OFF', ruleIndex: 1 });
  });

  it('asks the analysis port only for the AI conditions of the trigger\'s rules, once per kind', () => {
    const rules = [
      rule(),
      rule({ condition: { kind: 'any_reply', describe: '' }, conditions: [{ kind: 'ai_interested', describe: 'again' }, { kind: 'ai_not_interested', describe: 'no' }] }),
    ];
    expect(aiConditionsNeeded(rules, 'MESSAGE_REPLY')).toEqual([
      { kind: 'ai_interested', describe: 'wants more' },
      { kind: 'ai_not_interested', describe: 'no' },
    ]);
    expect(aiConditionsNeeded([rule({ condition: { kind: 'any_reply', describe: '' } })], 'MESSAGE_REPLY')).toEqual([]);
  });
});
