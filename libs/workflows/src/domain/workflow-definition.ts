/**
 * A workflow's definition (decisions.md 37.1): a graph of nodes joined by edges that leave a node
 * through one of its named ports. Plain data, stored per revision as JSON.
 */

export const NODE_KINDS = ['start', 'call', 'whatsapp', 'email', 'wait', 'branch', 'tag', 'webhook', 'end'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

export const MAX_NODES = 60;
export const MAX_EDGES = 120;

/** The ports of a call node: what became of the call. */
export const CALL_PORTS = ['answered', 'no_answer', 'voicemail', 'failed', 'transferred'] as const;
export type CallPort = (typeof CALL_PORTS)[number];
/** The ports of a WhatsApp or email node. `replied` is taken when a reply arrives within `replyWithinSeconds`. */
export const MESSAGE_PORTS = ['sent', 'failed', 'replied'] as const;
export type MessagePort = (typeof MESSAGE_PORTS)[number];
/** The one port of start, wait, tag and webhook nodes. */
export const NEXT_PORT = 'next';
/** A branch node's port when no case matches. */
export const ELSE_PORT = 'else';

/** What a branch node looks at. */
export const BRANCH_SUBJECTS = ['call_outcome', 'extraction', 'evaluation', 'message_reply', 'lead_field'] as const;
export type BranchSubject = (typeof BRANCH_SUBJECTS)[number];

export interface BranchCase {
  /** The port's name. */
  name: string;
  /** The values (compared as text, case-insensitively) that send the run through this port. */
  values: string[];
}

export type StartConfig = Record<string, never>;
export interface CallConfig {
  agentId: string;
}
export interface MessageConfig {
  templateId: string;
  /** The `replied` port is taken when a reply arrives within this many seconds (default 86,400). */
  replyWithinSeconds?: number;
}
export interface WaitConfig {
  /** Wait this long… */
  seconds?: number;
  /** …or until this local time ("HH:MM") in the lead's time zone (the campaign's when the lead has none). */
  untilLocalTime?: string;
}
export interface BranchConfig {
  on: BranchSubject;
  /** The extraction key, evaluation metric or lead field (not for call_outcome and message_reply). */
  key?: string;
  cases: BranchCase[];
}
export interface TagConfig {
  tag: string;
}
export interface WebhookConfig {
  url: string;
}
export type EndConfig = Record<string, never>;

export interface NodeConfigs {
  start: StartConfig;
  call: CallConfig;
  whatsapp: MessageConfig;
  email: MessageConfig;
  wait: WaitConfig;
  branch: BranchConfig;
  tag: TagConfig;
  webhook: WebhookConfig;
  end: EndConfig;
}

export interface WorkflowNode<K extends NodeKind = NodeKind> {
  id: string;
  kind: K;
  /** Shown in the run's steps; an end node's label is the run's endLabel. */
  label?: string;
  config: NodeConfigs[K];
}

export interface WorkflowEdge {
  from: string;
  port: string;
  to: string;
}

export interface WorkflowDefinition {
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
}

/** The default reply window of message nodes. */
export const DEFAULT_REPLY_WITHIN_SECONDS = 86_400;

/** The ports a node offers (decisions.md 37.1): every one must be wired to a next node. */
export function portsOf(node: WorkflowNode): readonly string[] {
  switch (node.kind) {
    case 'call':
      return CALL_PORTS;
    case 'whatsapp':
    case 'email':
      return MESSAGE_PORTS;
    case 'branch':
      return [...(node.config as BranchConfig).cases.map((c) => c.name), ELSE_PORT];
    case 'end':
      return [];
    default:
      return [NEXT_PORT];
  }
}

export function isKind<K extends NodeKind>(node: WorkflowNode, kind: K): node is WorkflowNode<K> {
  return node.kind === kind;
}

/** The ids a definition references in its workspace (checked on every write and at activation). */
export function referencesOf(definition: WorkflowDefinition): Array<{ path: string; kind: 'agent' | 'whatsapp_template' | 'email_template'; id: string }> {
  const refs: Array<{ path: string; kind: 'agent' | 'whatsapp_template' | 'email_template'; id: string }> = [];
  definition.nodes.forEach((node, i) => {
    if (isKind(node, 'call')) refs.push({ path: `nodes[${i}].config.agentId`, kind: 'agent', id: node.config.agentId });
    if (isKind(node, 'whatsapp')) refs.push({ path: `nodes[${i}].config.templateId`, kind: 'whatsapp_template', id: node.config.templateId });
    if (isKind(node, 'email')) refs.push({ path: `nodes[${i}].config.templateId`, kind: 'email_template', id: node.config.templateId });
  });
  return refs;
}
