import { exampleJourney as exampleDefinition } from './example-journey';
import { actionKindOf, BranchFacts, branchPortOf, callPortOf, follow, immediatePort, messagePortOf, nodeById, waitDueAt } from './run';
import { BranchConfig, MessageConfig, WaitConfig, WorkflowDefinition } from './workflow-definition';

const noFacts: BranchFacts = { lastCallOutcome: null, extraction: {}, evaluation: {}, lastReply: null, leadFields: {} };

/** Walks a definition with the given call outcome for every call step: the node ids visited, in order. */
function walk(definition: WorkflowDefinition, outcomeOf: (callNode: string) => string): string[] {
  const path: string[] = [];
  let node = definition.nodes.find((n) => n.kind === 'start')!;
  const facts = { ...noFacts };
  for (let i = 0; i < 100; i++) {
    path.push(node.id);
    if (node.kind === 'end') return path;
    let port = immediatePort(node, facts);
    if (node.kind === 'call') {
      facts.lastCallOutcome = outcomeOf(node.id);
      port = callPortOf(facts.lastCallOutcome);
    }
    if (node.kind === 'whatsapp' || node.kind === 'email') port = messagePortOf(node.config as MessageConfig, { sent: true, replyAfterSeconds: null });
    if (node.kind === 'wait' || node.kind === 'webhook') port = 'next';
    node = follow(definition, node.id, port!);
  }
  throw new Error('no end');
}

describe('runs: ports, branches and waits', () => {
  it('call outcomes map onto the call ports', () => {
    expect(['completed', 'transferred', 'voicemail', 'no_answer', 'busy', 'carrier_failure', null, 'weird'].map(callPortOf)).toEqual([
      'answered', 'transferred', 'voicemail', 'no_answer', 'no_answer', 'failed', 'failed', 'failed',
    ]);
  });

  it("each kind's actionKind (the journey step's)", () => {
    expect(['start', 'call', 'whatsapp', 'email', 'wait', 'branch', 'tag', 'webhook', 'end'].map((k) => actionKindOf(k as never))).toEqual([
      'none', 'call', 'whatsapp', 'email', 'wait', 'none', 'none', 'webhook', 'none',
    ]);
  });

  it('message ports: failed, sent, replied within the window only', () => {
    const config: MessageConfig = { templateId: 't', replyWithinSeconds: 600 };
    expect(messagePortOf(config, { sent: false, replyAfterSeconds: null })).toBe('failed');
    expect(messagePortOf(config, { sent: true, replyAfterSeconds: null })).toBe('sent');
    expect(messagePortOf(config, { sent: true, replyAfterSeconds: 599 })).toBe('replied');
    expect(messagePortOf(config, { sent: true, replyAfterSeconds: 601 })).toBe('sent');
    expect(messagePortOf({ templateId: 't' }, { sent: true, replyAfterSeconds: 86_400 })).toBe('replied');
  });

  it('branches on every subject, case-insensitively, else when nothing matches or the value is missing', () => {
    const on = (subject: BranchConfig['on'], key?: string): BranchConfig => ({ on: subject, key, cases: [{ name: 'yes', values: ['Interested', 'completed'] }] });
    expect(branchPortOf(on('call_outcome'), { ...noFacts, lastCallOutcome: 'completed' })).toBe('yes');
    expect(branchPortOf(on('call_outcome'), { ...noFacts, lastCallOutcome: 'no_answer' })).toBe('else');
    expect(branchPortOf(on('extraction', 'intent'), { ...noFacts, extraction: { intent: ' interested ' } })).toBe('yes');
    expect(branchPortOf(on('evaluation', 'intent'), { ...noFacts, evaluation: { intent: 'INTERESTED' } })).toBe('yes');
    expect(branchPortOf(on('evaluation', 'intent'), noFacts)).toBe('else');
    expect(branchPortOf(on('message_reply'), { ...noFacts, lastReply: 'interested' })).toBe('yes');
    expect(branchPortOf(on('lead_field', 'stage'), { ...noFacts, leadFields: { stage: 'Completed' } })).toBe('yes');
    expect(branchPortOf(on('lead_field', 'stage'), { ...noFacts, leadFields: { stage: 'cold' } })).toBe('else');
  });

  it('waits: a duration, or the next local time in the lead time zone', () => {
    const now = new Date('2026-03-10T12:00:00Z');
    expect(waitDueAt({ seconds: 172_800 }, now, 'UTC')).toEqual(new Date('2026-03-12T12:00:00Z'));
    const at = (config: WaitConfig, tz: string) => waitDueAt(config, now, tz).toISOString();
    // 12:00 UTC is 08:00 in New York (EDT from March 8): 09:00 local is an hour away; 07:00 is tomorrow.
    expect(at({ untilLocalTime: '09:00' }, 'America/New_York')).toBe('2026-03-10T13:00:00.000Z');
    expect(at({ untilLocalTime: '07:00' }, 'America/New_York')).toBe('2026-03-11T11:00:00.000Z');
    expect(at({ untilLocalTime: '12:00' }, 'UTC')).toBe('2026-03-11T12:00:00.000Z');
    expect(at({ untilLocalTime: '18:30' }, 'Asia/Kolkata')).toBe('2026-03-10T13:00:00.000Z'); // 17:30 there now
    // A daylight-saving gap (02:30 does not exist in New York on 8 March 2026): moved forward by the gap (03:30 EDT).
    expect(waitDueAt({ untilLocalTime: '02:30' }, new Date('2026-03-08T05:00:00Z'), 'America/New_York').toISOString()).toBe('2026-03-08T07:30:00.000Z');
  });

  it('the README journey: the last digit decides each lead path', () => {
    const definition = exampleDefinition();
    const OUTCOME_BY_DIGIT = ['no_answer', 'busy', 'voicemail', 'carrier_failure', 'transferred', 'completed', 'completed', 'completed', 'completed', 'completed'];
    const interested = ['start', 'call1', 'interested', 'wa', 'won'];
    const again = ['start', 'call1', 'interested', 'wait2d', 'call2', 'lost'];
    const paths = OUTCOME_BY_DIGIT.map((outcome) => walk(definition, () => outcome));
    expect(paths).toEqual([again, again, again, again, interested, interested, interested, interested, interested, interested]);
    expect(nodeById(definition, 'won').label).toBe('offer_sent');
  });
});
