import { AppError } from '@outreach/core';
import { assertValidDefinition, graphIssues, ReferenceCheck } from './definition-rules';
import { schemaIssues } from './definition-schema';
import { Workflow } from './workflow';
import { exampleJourney as exampleDefinition } from './example-journey';
import { portsOf, WorkflowDefinition } from './workflow-definition';

const TEMPLATE = '22222222-2222-4222-8222-222222222222';
const AGENT = '11111111-1111-4111-8111-111111111111';

const everything: ReferenceCheck = { exists: () => true };

function detailsOf(definition: unknown, references: ReferenceCheck = everything): Array<{ path: string; message: string }> {
  try {
    assertValidDefinition(definition, references);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('workflow_invalid');
    return (error as AppError).options.extra?.details as Array<{ path: string; message: string }>;
  }
  throw new Error('the definition was accepted');
}

const paths = (definition: unknown, references?: ReferenceCheck) => detailsOf(definition, references).map((d) => d.path);
const mutate = (change: (d: WorkflowDefinition) => void): WorkflowDefinition => {
  const d = exampleDefinition();
  change(d);
  return d;
};
const indexOf = (d: WorkflowDefinition, id: string) => d.nodes.findIndex((n) => n.id === id);

describe('workflow definition: JSON Schema', () => {
  it('accepts the README example', () => {
    expect(schemaIssues(exampleDefinition())).toEqual([]);
    expect(graphIssues(exampleDefinition())).toEqual([]);
    expect(() => assertValidDefinition(exampleDefinition(), everything)).not.toThrow();
  });

  const cases: Array<[string, unknown, string]> = [
    ['not an object', 'graph', '(root)'],
    ['nodes missing', { edges: [] }, 'nodes'],
    ['edges missing', { nodes: [{ id: 's', kind: 'start', config: {} }] }, 'edges'],
    ['unknown top-level member', { ...exampleDefinition(), extra: 1 }, 'extra'],
    ['no nodes', { nodes: [], edges: [] }, 'nodes'],
    ['more than 60 nodes', { nodes: Array.from({ length: 61 }, (_, i) => ({ id: `n${i}`, kind: 'end', config: {} })), edges: [] }, 'nodes'],
    ['more than 120 edges', { nodes: [{ id: 's', kind: 'start', config: {} }], edges: Array.from({ length: 121 }, () => ({ from: 's', port: 'next', to: 's' })) }, 'edges'],
    ['unknown kind', mutate((d) => ((d.nodes[6] as { kind: string }).kind = 'sms')), 'nodes[6].kind'],
    ['bad node id', mutate((d) => (d.nodes[6].id = 'has space')), 'nodes[6].id'],
    ['node without config', mutate((d) => delete (d.nodes[0] as { config?: unknown }).config), 'nodes[0].config'],
    ['call without agentId', mutate((d) => (d.nodes[1].config = {} as never)), 'nodes[1].config.agentId'],
    ['call agentId not a uuid', mutate((d) => (d.nodes[1].config = { agentId: 'agent-1' })), 'nodes[1].config.agentId'],
    ['unknown config member', mutate((d) => (d.nodes[1].config = { agentId: AGENT, retries: 3 } as never)), 'nodes[1].config.retries'],
    ['whatsapp without templateId', mutate((d) => (d.nodes[3].config = {} as never)), 'nodes[3].config.templateId'],
    ['replyWithinSeconds below 60', mutate((d) => (d.nodes[3].config = { templateId: TEMPLATE, replyWithinSeconds: 5 })), 'nodes[3].config.replyWithinSeconds'],
    ['wait with neither duration nor time', mutate((d) => (d.nodes[4].config = {})), 'nodes[4].config'],
    ['wait with both', mutate((d) => (d.nodes[4].config = { seconds: 60, untilLocalTime: '09:00' })), 'nodes[4].config'],
    ['wait until a bad local time', mutate((d) => (d.nodes[4].config = { untilLocalTime: '25:00' })), 'nodes[4].config.untilLocalTime'],
    ['wait of zero seconds', mutate((d) => (d.nodes[4].config = { seconds: 0 })), 'nodes[4].config.seconds'],
    ['branch on an unknown subject', mutate((d) => (d.nodes[2].config = { on: 'mood', cases: [{ name: 'a', values: ['x'] }] } as never)), 'nodes[2].config.on'],
    ['branch on extraction without key', mutate((d) => (d.nodes[2].config = { on: 'extraction', cases: [{ name: 'interested', values: ['yes'] }] })), 'nodes[2].config.key'],
    ['branch without cases', mutate((d) => (d.nodes[2].config = { on: 'call_outcome', cases: [] })), 'nodes[2].config.cases'],
    ['branch case named else', mutate((d) => (d.nodes[2].config = { on: 'call_outcome', cases: [{ name: 'else', values: ['completed'] }] })), 'nodes[2].config.cases[0].name'],
    ['branch case without values', mutate((d) => (d.nodes[2].config = { on: 'call_outcome', cases: [{ name: 'interested', values: [] }] })), 'nodes[2].config.cases[0].values'],
    ['tag without tag', mutate((d) => d.nodes.push({ id: 't', kind: 'tag', config: {} as never })), 'nodes[8].config.tag'],
    ['webhook with a non-http url', mutate((d) => d.nodes.push({ id: 'h', kind: 'webhook', config: { url: 'ftp://x' } })), 'nodes[8].config.url'],
    ['end with config members', mutate((d) => (d.nodes[6].config = { label: 'x' } as never)), 'nodes[6].config.label'],
    ['edge without port', mutate((d) => delete (d.edges[0] as { port?: string }).port), 'edges[0].port'],
  ];
  it.each(cases.map(([name, definition, path]) => [name, path, definition] as const))('%s → details path %s', (_name, path, definition) => {
    expect(paths(definition)).toContain(path);
  });
});

describe('workflow definition: graph rules', () => {
  it('duplicate node id', () => {
    expect(detailsOf(mutate((d) => (d.nodes[7].id = 'won')))).toContainEqual({ path: 'nodes[7].id', message: 'duplicate node id won' });
  });
  it('duplicate branch case name', () => {
    const d = mutate((d) => (d.nodes[2].config = { on: 'call_outcome', cases: [{ name: 'a', values: ['completed'] }, { name: 'a', values: ['busy'] }] }));
    expect(paths(d)).toContain('nodes[2].config.cases[1].name');
  });
  it('no start node', () => {
    expect(paths(mutate((d) => (d.nodes[0] = { id: 'start', kind: 'tag', config: { tag: 'x' } })))).toEqual(['nodes']);
  });
  it('two start nodes', () => {
    expect(paths(mutate((d) => d.nodes.push({ id: 'start2', kind: 'start', config: {} })))).toEqual(['nodes[8].kind']);
  });
  it('edge from an unknown node', () => {
    expect(paths(mutate((d) => d.edges.push({ from: 'ghost', port: 'next', to: 'won' })))).toContain(`edges[${exampleDefinition().edges.length}].from`);
  });
  it('edge to an unknown node', () => {
    expect(paths(mutate((d) => (d.edges[0].to = 'ghost')))).toContain('edges[0].to');
  });
  it('edge through a port the node does not have', () => {
    const details = detailsOf(mutate((d) => (d.edges[0].port = 'answered')));
    expect(details).toContainEqual({ path: 'edges[0].port', message: 'a start node has ports next; not answered' });
  });
  it('edge out of an end node', () => {
    expect(paths(mutate((d) => d.edges.push({ from: 'won', port: 'next', to: 'lost' })))).toContain(`edges[${exampleDefinition().edges.length}].port`);
  });
  it('a port wired twice', () => {
    expect(paths(mutate((d) => d.edges.push({ from: 'start', port: 'next', to: 'won' })))).toContain(`edges[${exampleDefinition().edges.length}]`);
  });
  it('an edge into the start node', () => {
    expect(paths(mutate((d) => (d.edges[d.edges.length - 1].to = 'start')))).toContain(`edges[${exampleDefinition().edges.length - 1}].to`);
  });
  it('an unwired port', () => {
    const d = mutate((d) => (d.edges = d.edges.filter((e) => !(e.from === 'call1' && e.port === 'voicemail'))));
    expect(detailsOf(d)).toEqual([{ path: 'nodes[1].ports.voicemail', message: 'port voicemail is not wired' }]);
  });
  it('an unwired branch else', () => {
    const d = mutate((d) => (d.edges = d.edges.filter((e) => !(e.from === 'interested' && e.port === 'else'))));
    expect(paths(d)).toContain('nodes[2].ports.else');
  });
  it('an unreachable node', () => {
    const d = mutate((d) => d.nodes.push({ id: 'island', kind: 'end', config: {} }));
    expect(detailsOf(d)).toEqual([{ path: 'nodes[8]', message: 'node island cannot be reached from the start' }]);
  });
  it('a cycle without a wait node', () => {
    // call2's no_answer leads back to call1: call1 → branch → wait → call2 → call1 has a wait; call2 → call2 would not.
    const ok = mutate((d) => (d.edges.find((e) => e.from === 'call2' && e.port === 'no_answer')!.to = 'call1'));
    expect(graphIssues(ok)).toEqual([]);
    const bad = mutate((d) => (d.edges.find((e) => e.from === 'call2' && e.port === 'no_answer')!.to = 'call2'));
    const edge = bad.edges.findIndex((e) => e.from === 'call2' && e.port === 'no_answer');
    expect(detailsOf(bad)).toEqual([{ path: `edges[${edge}]`, message: 'this edge closes a cycle without a wait node' }]);
  });
  it('a longer cycle without a wait node', () => {
    const bad = mutate((d) => (d.edges.find((e) => e.from === 'wa' && e.port === 'failed')!.to = 'call1'));
    expect(detailsOf(bad)[0].message).toBe('this edge closes a cycle without a wait node');
  });
  it('an agent or template missing from the workspace', () => {
    const onlyAgents: ReferenceCheck = { exists: (kind) => kind === 'agent' };
    expect(detailsOf(exampleDefinition(), onlyAgents)).toEqual([{ path: `nodes[${indexOf(exampleDefinition(), 'wa')}].config.templateId`, message: `no whatsapp template ${TEMPLATE} in this workspace` }]);
    const none: ReferenceCheck = { exists: () => false };
    expect(paths(exampleDefinition(), none)).toEqual(['nodes[1].config.agentId', 'nodes[3].config.templateId', 'nodes[5].config.agentId']);
  });
  it('ports of each kind', () => {
    const d = exampleDefinition();
    expect(portsOf(d.nodes[1])).toEqual(['answered', 'no_answer', 'voicemail', 'failed', 'transferred']);
    expect(portsOf(d.nodes[2])).toEqual(['interested', 'else']);
    expect(portsOf(d.nodes[3])).toEqual(['sent', 'failed', 'replied']);
    expect(portsOf(d.nodes[4])).toEqual(['next']);
    expect(portsOf(d.nodes[6])).toEqual([]);
  });
});

describe('Workflow aggregate', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const later = new Date('2026-01-02T00:00:00Z');
  const fresh = () => Workflow.create({ id: 'w', workspaceId: 'ws', name: 'n', definition: exampleDefinition(), now });

  it('starts DRAFT at revision 1; each write adds one', () => {
    const w = fresh();
    expect([w.status, w.revision]).toEqual(['DRAFT', 1]);
    w.edit(1, { name: 'm' }, later);
    expect([w.status, w.revision, w.toProps().name, w.toProps().updatedAt]).toEqual(['DRAFT', 2, 'm', later]);
    expect(w.activate(2, later)).toBe(true);
    expect([w.status, w.revision]).toEqual(['ACTIVE', 3]);
    expect(w.activate(3, later)).toBe(false);
    expect(w.revision).toBe(3);
    w.archive(3, later);
    expect([w.status, w.revision]).toEqual(['archived', 4]);
  });

  it('a stale revision → concurrent_modification with currentRevision, nothing changed', () => {
    const w = fresh();
    w.edit(1, { name: 'm' }, later);
    let error: AppError | null = null;
    try {
      w.edit(1, { name: 'x' }, later);
    } catch (e) {
      error = e as AppError;
    }
    expect([error?.code, error?.status, error?.options.currentRevision]).toEqual(['concurrent_modification', 409, 2]);
    expect(w.toProps().name).toBe('m');
  });

  it('an archived workflow refuses every write', () => {
    const w = fresh();
    w.archive(1, later);
    for (const act of [() => w.edit(2, { name: 'x' }, later), () => w.activate(2, later), () => w.archive(2, later)]) {
      expect(act).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    }
    expect(w.revision).toBe(2);
  });
});
