import {
  BranchConfig,
  CallPort,
  DEFAULT_REPLY_WITHIN_SECONDS,
  ELSE_PORT,
  MessageConfig,
  NEXT_PORT,
  NodeKind,
  WaitConfig,
  WorkflowDefinition,
  WorkflowNode,
} from './workflow-definition';

/** Run statuses (decisions.md 37.4). */
export const RUN_STATUSES = ['RUNNING', 'WAITING', 'DONE', 'FAILED', 'CANCELED'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Step statuses (decisions.md 37.4). */
export const STEP_STATUSES = ['PENDING', 'RUNNING', 'DONE', 'FAILED', 'SKIPPED'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** What a step does outside the run's own rows: the journey step's `actionKind`. */
export type ActionKind = 'none' | 'call' | 'whatsapp' | 'email' | 'wait' | 'webhook';

const ACTION_OF: Readonly<Record<NodeKind, ActionKind>> = {
  start: 'none',
  call: 'call',
  whatsapp: 'whatsapp',
  email: 'email',
  wait: 'wait',
  branch: 'none',
  tag: 'none',
  webhook: 'webhook',
  end: 'none',
};

export function actionKindOf(kind: NodeKind): ActionKind {
  return ACTION_OF[kind];
}

/** The call outcomes of telephony, as the call node's ports name them (decisions.md 37.1). */
const CALL_PORT_OF_OUTCOME: Readonly<Record<string, CallPort>> = {
  completed: 'answered',
  transferred: 'transferred',
  voicemail: 'voicemail',
  no_answer: 'no_answer',
  busy: 'no_answer',
  carrier_failure: 'failed',
};

/** The call node's port for a call outcome (unknown outcomes: failed). */
export function callPortOf(outcome: string | null): CallPort {
  return (outcome !== null && CALL_PORT_OF_OUTCOME[outcome]) || 'failed';
}

/** What a message step learnt: whether it was accepted and whether (and after how long) a reply came. */
export interface MessageOutcome {
  sent: boolean;
  replyAfterSeconds: number | null;
}

/** The message node's port: replied (within the node's window), sent, or failed. */
export function messagePortOf(config: MessageConfig, outcome: MessageOutcome): 'sent' | 'failed' | 'replied' {
  if (!outcome.sent) return 'failed';
  const window = config.replyWithinSeconds ?? DEFAULT_REPLY_WITHIN_SECONDS;
  return outcome.replyAfterSeconds !== null && outcome.replyAfterSeconds <= window ? 'replied' : 'sent';
}

/** What a branch can look at, gathered from the run's earlier steps and the lead. */
export interface BranchFacts {
  /** The outcome of the run's latest call step (telephony's words: completed, no_answer…). */
  lastCallOutcome: string | null;
  /** The latest call's extraction and evaluation values. */
  extraction: Record<string, unknown>;
  evaluation: Record<string, unknown>;
  /** The text of the latest reply to a message step. */
  lastReply: string | null;
  /** The lead's fields. */
  leadFields: Record<string, string>;
}

/** The branch's port: the first case one of whose values equals the subject (trimmed, case-insensitive), else `else`. */
export function branchPortOf(config: BranchConfig, facts: BranchFacts): string {
  const subject = ((): unknown => {
    switch (config.on) {
      case 'call_outcome':
        return facts.lastCallOutcome;
      case 'message_reply':
        return facts.lastReply;
      case 'extraction':
        return facts.extraction[config.key!];
      case 'evaluation':
        return facts.evaluation[config.key!];
      case 'lead_field':
        return facts.leadFields[config.key!];
    }
  })();
  if (subject === null || subject === undefined) return ELSE_PORT;
  const text = String(subject).trim().toLowerCase();
  return config.cases.find((c) => c.values.some((v) => v.trim().toLowerCase() === text))?.name ?? ELSE_PORT;
}

/**
 * When a wait node ends: `seconds` after `now`, or the next `untilLocalTime` (HH:MM) in `timeZone`
 * strictly after `now` (tomorrow's when today's has passed). A local time that does not exist (a
 * daylight-saving gap) is moved forward by the gap.
 */
export function waitDueAt(config: WaitConfig, now: Date, timeZone: string): Date {
  if (config.seconds !== undefined) return new Date(now.getTime() + config.seconds * 1000);
  const [hour, minute] = config.untilLocalTime!.split(':').map(Number);
  for (let dayOffset = 0; dayOffset <= 2; dayOffset++) {
    const local = localParts(new Date(now.getTime() + dayOffset * 86_400_000), timeZone);
    const candidate = zonedInstant(local.year, local.month, local.day, hour, minute, timeZone);
    if (candidate.getTime() > now.getTime()) return candidate;
  }
  return new Date(now.getTime() + 86_400_000);
}

function localParts(at: Date, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute') };
}

/**
 * The instant whose wall clock in `timeZone` reads the given local time: with the zone's offset
 * half a day before and after, the candidate that reads right (the earlier in an overlap); in a
 * gap, the later candidate — the wall time moved forward by the gap (Temporal's "compatible").
 */
function zonedInstant(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): Date {
  const wanted = Date.UTC(year, month - 1, day, hour, minute);
  const offset = (at: number) => {
    const seen = localParts(new Date(at), timeZone);
    return Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute) - at;
  };
  const candidates = [...new Set([wanted - offset(wanted - 43_200_000), wanted - offset(wanted + 43_200_000)])].sort((a, b) => a - b);
  const exact = candidates.find((at) => at + offset(at) === wanted);
  return new Date(exact ?? candidates[candidates.length - 1]);
}

/** The node a port of `nodeId` leads to (a validated definition wires every port). */
export function follow(definition: WorkflowDefinition, nodeId: string, port: string): WorkflowNode {
  const edge = definition.edges.find((e) => e.from === nodeId && e.port === port);
  const to = edge ? definition.nodes.find((n) => n.id === edge.to) : undefined;
  if (!to) throw new Error(`port ${port} of node ${nodeId} is not wired (the definition was not validated)`);
  return to;
}

export function nodeById(definition: WorkflowDefinition, nodeId: string): WorkflowNode {
  const node = definition.nodes.find((n) => n.id === nodeId);
  if (!node) throw new Error(`no node ${nodeId} in the run's revision`);
  return node;
}

/** Ports a step can leave through without an outside effect (start, tag, branch). End has none. */
export function immediatePort(node: WorkflowNode, facts: BranchFacts): string | null {
  switch (node.kind) {
    case 'start':
    case 'tag':
      return NEXT_PORT;
    case 'branch':
      return branchPortOf(node.config as BranchConfig, facts);
    default:
      return null;
  }
}


/** What a run remembers for its branches (decisions.md 37.7): the latest call's outcome and the latest reply. */
export interface RunFacts {
  lastCallOutcome?: string | null;
  lastCallId?: string | null;
  lastReply?: string | null;
  /** The answered call whose analysis the run waits for before its next step (decisions.md 37.20). */
  awaitingAnalysis?: string | null;
  /** The latest call's analysis values (empty: none, or not analysed). */
  extraction?: Record<string, unknown>;
  evaluation?: Record<string, unknown>;
}

export const FINAL_RUN_STATUSES: readonly RunStatus[] = ['DONE', 'FAILED', 'CANCELED'];

/** The deterministic job id of a run's step at a visit (decisions.md 37.12). */
export function stepJobId(runId: string, visit: number): string {
  return `wfstep-${runId}-${visit}`;
}

/** The idempotency key of a message step's send. */
export function messageKey(runId: string, visit: number): string {
  return `wf-${runId}-${visit}`;
}

/** Whether every port of a node leads to the same node (its outcome then changes nothing). */
export function allPortsMeet(definition: WorkflowDefinition, nodeId: string): boolean {
  const targets = new Set(definition.edges.filter((e) => e.from === nodeId).map((e) => e.to));
  return targets.size <= 1;
}
