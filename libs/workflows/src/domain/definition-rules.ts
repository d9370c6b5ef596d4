import { AppError, ValidationIssue } from '@outreach/core';
import { schemaIssues } from './definition-schema';
import { BranchConfig, portsOf, referencesOf, WorkflowDefinition } from './workflow-definition';

/**
 * The graph rules of a definition the JSON Schema accepted (decisions.md 37.1), each with the
 * path it blames:
 * - node ids are unique (`nodes[i].id`), branch case names are unique (`nodes[i].config.cases[j].name`);
 * - exactly one start node (`nodes`, or the second one's `nodes[i].kind`);
 * - an edge leaves an existing node (`edges[i].from`) through one of its ports (`edges[i].port`),
 *   at most once per port (`edges[i]`), to an existing node other than the start (`edges[i].to`);
 * - every port of every node is wired (`nodes[i].ports.<port>`);
 * - every node is reachable from the start (`nodes[i]`);
 * - every cycle passes through a wait node (`edges[i]`: an edge of the cycle).
 */
export function graphIssues(definition: WorkflowDefinition): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const index = new Map<string, number>();
  definition.nodes.forEach((node, i) => {
    if (index.has(node.id)) issues.push({ path: `nodes[${i}].id`, message: `duplicate node id ${node.id}` });
    else index.set(node.id, i);
    if (node.kind === 'branch') {
      const seen = new Set<string>();
      (node.config as BranchConfig).cases.forEach((c, j) => {
        if (seen.has(c.name)) issues.push({ path: `nodes[${i}].config.cases[${j}].name`, message: `duplicate case ${c.name}` });
        seen.add(c.name);
      });
    }
  });
  const starts = definition.nodes.flatMap((n, i) => (n.kind === 'start' ? [i] : []));
  if (starts.length === 0) issues.push({ path: 'nodes', message: 'needs exactly one start node; there is none' });
  for (const i of starts.slice(1)) issues.push({ path: `nodes[${i}].kind`, message: 'needs exactly one start node; this is another' });
  if (issues.length > 0) return issues;

  const node = (id: string) => definition.nodes[index.get(id)!];
  const wired = new Set<string>();
  definition.edges.forEach((edge, i) => {
    const from = index.has(edge.from) ? node(edge.from) : null;
    if (!from) issues.push({ path: `edges[${i}].from`, message: `no node ${edge.from}` });
    else if (!portsOf(from).includes(edge.port)) {
      const ports = portsOf(from);
      issues.push({ path: `edges[${i}].port`, message: `a ${from.kind} node has ${ports.length ? `ports ${ports.join(', ')}` : 'no ports'}; not ${edge.port}` });
    } else if (wired.has(`${edge.from}\u0000${edge.port}`)) issues.push({ path: `edges[${i}]`, message: `port ${edge.port} of ${edge.from} is wired twice` });
    else wired.add(`${edge.from}\u0000${edge.port}`);
    if (!index.has(edge.to)) issues.push({ path: `edges[${i}].to`, message: `no node ${edge.to}` });
    else if (node(edge.to).kind === 'start') issues.push({ path: `edges[${i}].to`, message: 'no edge may lead to the start node' });
  });
  definition.nodes.forEach((n, i) => {
    for (const port of portsOf(n)) if (!wired.has(`${n.id}\u0000${port}`)) issues.push({ path: `nodes[${i}].ports.${port}`, message: `port ${port} is not wired` });
  });
  if (issues.length > 0) return issues;

  const out = new Map<string, Array<{ to: string; edge: number }>>();
  definition.edges.forEach((e, i) => out.set(e.from, [...(out.get(e.from) ?? []), { to: e.to, edge: i }]));
  const reached = new Set<string>();
  const stack = [definition.nodes[starts[0]].id];
  while (stack.length) {
    const id = stack.pop()!;
    if (reached.has(id)) continue;
    reached.add(id);
    for (const { to } of out.get(id) ?? []) stack.push(to);
  }
  definition.nodes.forEach((n, i) => {
    if (!reached.has(n.id)) issues.push({ path: `nodes[${i}]`, message: `node ${n.id} cannot be reached from the start` });
  });
  const cycle = cycleWithoutWait(definition, out);
  if (cycle !== null) issues.push({ path: `edges[${cycle}]`, message: 'this edge closes a cycle without a wait node' });
  return issues;
}

/** An edge closing a cycle that no wait node breaks (depth-first search over non-wait nodes); null when none. */
function cycleWithoutWait(definition: WorkflowDefinition, out: Map<string, Array<{ to: string; edge: number }>>): number | null {
  const isWait = new Set(definition.nodes.filter((n) => n.kind === 'wait').map((n) => n.id));
  const state = new Map<string, 'open' | 'done'>();
  for (const root of definition.nodes) {
    if (isWait.has(root.id) || state.has(root.id)) continue;
    // Iterative DFS: [node, index of its next outgoing edge].
    const path: Array<[string, number]> = [[root.id, 0]];
    state.set(root.id, 'open');
    while (path.length) {
      const top = path[path.length - 1];
      const edges = out.get(top[0]) ?? [];
      if (top[1] >= edges.length) {
        state.set(top[0], 'done');
        path.pop();
        continue;
      }
      const { to, edge } = edges[top[1]++];
      if (isWait.has(to)) continue;
      if (state.get(to) === 'open') return edge;
      if (!state.has(to)) {
        state.set(to, 'open');
        path.push([to, 0]);
      }
    }
  }
  return null;
}

/** What a workspace holds, for the reference rule (agents and templates named by nodes exist). */
export interface ReferenceCheck {
  exists(kind: 'agent' | 'whatsapp_template' | 'email_template', id: string): boolean;
}

const invalid = (details: ValidationIssue[]): never => {
  throw new AppError('workflow_invalid', { message: `the workflow definition is invalid: ${details[0].path} ${details[0].message}`, extra: { details } });
};

/** Schema, then graph rules: 422 workflow_invalid with `details: [{path, message}]` for every problem of the first failing stage. */
export function assertValidShape(definition: unknown): WorkflowDefinition {
  const schema = schemaIssues(definition);
  if (schema.length) invalid(schema);
  const graph = graphIssues(definition as WorkflowDefinition);
  if (graph.length) invalid(graph);
  return definition as WorkflowDefinition;
}

/** Every agent and template the definition names exists in the workspace (422 workflow_invalid otherwise). */
export function assertReferences(definition: WorkflowDefinition, references: ReferenceCheck): void {
  const missing = referencesOf(definition)
    .filter((r) => !references.exists(r.kind, r.id))
    .map((r) => ({ path: r.path, message: `no ${r.kind.replace('_', ' ')} ${r.id} in this workspace` }));
  if (missing.length) invalid(missing);
}

/** The whole validation (decisions.md 37.1): shape, graph, then references. */
export function assertValidDefinition(definition: unknown, references: ReferenceCheck): WorkflowDefinition {
  const valid = assertValidShape(definition);
  assertReferences(valid, references);
  return valid;
}
