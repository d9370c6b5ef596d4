import { AnalysisInput, AnalysisProviderError, AnalysisResult, CallAnalyser } from '@outreach/calls';
import { ContactHandOffs, HandOffOutcome, OutreachRule, ReplyCandidate } from '@outreach/campaigns';
import { FixedClock, isRetryLater } from '@outreach/core';
import { MessageQueries } from '@outreach/messaging';
import { jobsRollback, RecordingOutbox, RollbackUnitOfWork } from '../../../platform/src/testing';
import { ApplyReplyRules } from './apply-reply-rules.use-case';
import { ReplyRulesPayload } from './engine-jobs';

const NOW = new Date('2026-11-23T10:00:00Z');
const RULE: OutreachRule = {
  trigger: 'MESSAGE_REPLY',
  afterDays: 0,
  condition: { kind: 'ai_interested', describe: 'Does the contact ask for a demo?' },
  conditions: [],
  match: 'ALL',
  action: 'HAND_OFF',
};

class ScriptedAnalyser extends CallAnalyser {
  readonly inputs: AnalysisInput[] = [];
  constructor(public answer: (input: AnalysisInput) => AnalysisResult) {
    super();
  }
  async analyse(input: AnalysisInput): Promise<AnalysisResult> {
    this.inputs.push(input);
    return this.answer(input);
  }
}

class FakeHandOffs {
  readonly handed: Array<{ contactId: string; detail: Record<string, unknown> }> = [];
  outcome: HandOffOutcome = { outcome: 'handed_off', from: 'PENDING', becameFinal: true };
  constructor(readonly list: ReplyCandidate[]) {}
  async candidates(): Promise<ReplyCandidate[]> {
    return this.list;
  }
  async handOff(contactId: string, detail: Record<string, unknown>): Promise<HandOffOutcome> {
    if (this.outcome.outcome === 'handed_off') this.handed.push({ contactId, detail });
    return this.outcome;
  }
}

function candidate(overrides: Partial<ReplyCandidate> = {}): ReplyCandidate {
  return {
    contactId: 'contact-1',
    campaignId: 'campaign-1',
    campaignStatus: 'RUNNING',
    channel: 'VOICE_THEN_WHATSAPP',
    source: 'CSV',
    contactStatus: 'PENDING',
    outreachRules: [RULE],
    ...overrides,
  };
}

const payload = (at = NOW): ReplyRulesPayload => ({ messageId: 'message-1', provider: 'sandbox', replyId: 'wamid.reply', text: 'Yes please, book me a demo', at: at.toISOString() });

function build(candidates: ReplyCandidate[], answer: (input: AnalysisInput) => AnalysisResult, channel: 'WHATSAPP' | 'EMAIL' = 'WHATSAPP') {
  const clock = new FixedClock(NOW);
  const outbox = new RecordingOutbox();
  const uow = new RollbackUnitOfWork([jobsRollback(outbox)]);
  const handOffs = new FakeHandOffs(candidates);
  const analyser = new ScriptedAnalyser(answer);
  const messages = { party: async (id: string) => (id === 'message-1' ? { workspaceId: 'ws-1', channel, address: '+14155550105', senderId: 's-1' } : null) };
  const useCase = new ApplyReplyRules(messages as unknown as MessageQueries, handOffs as unknown as ContactHandOffs, analyser, outbox, uow, clock);
  return { useCase, outbox, handOffs, analyser, clock };
}

const yes = (input: AnalysisInput): AnalysisResult => ({ extraction: {}, evaluation: Object.fromEntries(input.metrics.map((m) => [m.key, 'yes'])) });

describe('ApplyReplyRules', () => {
  it('asks the analysis port the condition\'s own question about the reply, and hands off: timeline detail, dispatch wake-up', async () => {
    const { useCase, outbox, handOffs, analyser } = build([candidate()], yes);
    expect(await useCase.execute(payload())).toEqual({ state: 'judged', handedOff: ['contact-1'] });
    expect(analyser.inputs).toEqual([
      {
        transcript: 'Contact: Yes please, book me a demo',
        extractionKeys: [],
        metrics: [{ key: 'ai_interested', label: 'ai_interested', allowedValues: ['yes', 'no'], prompt: 'Does the contact ask for a demo?' }],
      },
    ]);
    expect(handOffs.handed).toEqual([
      { contactId: 'contact-1', detail: { rule: 0, trigger: 'MESSAGE_REPLY', messageId: 'message-1', replyId: 'wamid.reply', verdicts: { ai_interested: true } } },
    ]);
    expect(outbox.jobs.map((j) => `${j.queue}/${j.name}`)).toEqual(['campaigns/dispatch']);
  });

  it('an API lead the hand-off ends gets its result job; a finished campaign no wake-up', async () => {
    const { useCase, outbox } = build([candidate({ source: 'API', campaignStatus: 'COMPLETED' })], yes);
    await useCase.execute(payload());
    expect(outbox.jobs).toEqual([expect.objectContaining({ queue: 'results', name: 'lead-final', payload: { contactId: 'contact-1', callId: null } })]);
  });

  it('a reply judged "no" hands nobody off; rules without AI conditions ask nothing', async () => {
    const no = build([candidate()], (input) => ({ extraction: {}, evaluation: Object.fromEntries(input.metrics.map((m) => [m.key, 'no'])) }));
    expect(await no.useCase.execute(payload())).toEqual({ state: 'judged', handedOff: [] });
    expect(no.outbox.jobs).toEqual([]);
    const anyReply = build([candidate({ outreachRules: [{ ...RULE, condition: { kind: 'any_reply', describe: '' } }] })], yes);
    expect(await anyReply.useCase.execute(payload())).toEqual({ state: 'judged', handedOff: ['contact-1'] });
    expect(anyReply.analyser.inputs).toEqual([]);
  });

  it('an attempt in flight: RetryLater (the hand-off waits for its settlement)', async () => {
    const { useCase, handOffs } = build([candidate()], yes);
    handOffs.outcome = { outcome: 'in_flight' };
    const error = await useCase.execute(payload()).catch((e: unknown) => e);
    expect(isRetryLater(error)).toBe(true);
  });

  it('an analysis port that fails for now: RetryLater for an hour after the reply, then the reply is left unjudged; a lasting failure at once', async () => {
    const down = () => {
      throw new AnalysisProviderError('upstream_status', 'down', 503);
    };
    const fresh = build([candidate()], down);
    expect(isRetryLater(await fresh.useCase.execute(payload()).catch((e: unknown) => e))).toBe(true);
    const old = build([candidate()], down);
    expect(await old.useCase.execute(payload(new Date(NOW.getTime() - 61 * 60_000)))).toEqual({ state: 'judged', handedOff: [] });
    const refused = build([candidate()], () => {
      throw new AnalysisProviderError('upstream_status', 'bad request', 400);
    });
    expect(await refused.useCase.execute(payload())).toEqual({ state: 'judged', handedOff: [] });
    expect(refused.handOffs.handed).toEqual([]);
  });

  it('a reply to an unknown or an email message concerns no campaign rule', async () => {
    const email = build([candidate()], yes, 'EMAIL');
    expect(await email.useCase.execute(payload())).toEqual({ state: 'no_conversation', handedOff: [] });
    const unknown = build([candidate()], yes);
    expect(await unknown.useCase.execute({ ...payload(), messageId: 'other' })).toEqual({ state: 'no_conversation', handedOff: [] });
    const none = build([], yes);
    expect(await none.useCase.execute(payload())).toEqual({ state: 'no_rules', handedOff: [] });
  });
});
