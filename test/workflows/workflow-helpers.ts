import { bearer, TestApp } from '../support/test-app';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely, field by field
type Loose = Record<string, any>;

const CALL_PORTS = ['answered', 'no_answer', 'voicemail', 'failed', 'transferred'];

/** The README's journey: call → branch on interested → WhatsApp, or wait 2 days → call again. */
export function exampleDefinition(agentId: string, templateId: string) {
  return {
    nodes: [
      { id: 'start', kind: 'start', config: {} },
      { id: 'call1', kind: 'call', label: 'First call', config: { agentId } },
      { id: 'interested', kind: 'branch', label: 'Interested?', config: { on: 'call_outcome', cases: [{ name: 'interested', values: ['completed', 'transferred'] }] } },
      { id: 'wa', kind: 'whatsapp', label: 'Send the offer', config: { templateId } },
      { id: 'wait2d', kind: 'wait', label: 'Two days', config: { seconds: 172_800 } },
      { id: 'call2', kind: 'call', label: 'Second call', config: { agentId } },
      { id: 'won', kind: 'end', label: 'offer_sent', config: {} },
      { id: 'lost', kind: 'end', label: 'called_twice', config: {} },
    ],
    edges: [
      { from: 'start', port: 'next', to: 'call1' },
      ...CALL_PORTS.map((port) => ({ from: 'call1', port, to: 'interested' })),
      { from: 'interested', port: 'interested', to: 'wa' },
      { from: 'interested', port: 'else', to: 'wait2d' },
      ...['sent', 'failed', 'replied'].map((port) => ({ from: 'wa', port, to: 'won' })),
      { from: 'wait2d', port: 'next', to: 'call2' },
      ...CALL_PORTS.map((port) => ({ from: 'call2', port, to: 'lost' })),
    ],
  };
}

/** The smallest valid definition: start → end. */
export function trivialDefinition() {
  return { nodes: [{ id: 'start', kind: 'start', config: {} }, { id: 'done', kind: 'end', label: 'done', config: {} }], edges: [{ from: 'start', port: 'next', to: 'done' }] };
}

export async function createWorkflow(t: TestApp, key: string, definition: unknown = trivialDefinition(), name = 'Journey'): Promise<Loose> {
  const res = await t.http.post('/workflows').set(bearer(key)).send({ name, definition });
  if (res.status !== 201) throw new Error(`createWorkflow: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A workflow created and activated (revision 2). */
export async function activeWorkflow(t: TestApp, key: string, definition: unknown = trivialDefinition()): Promise<Loose> {
  const w = await createWorkflow(t, key, definition);
  const res = await t.http.post(`/workflows/${w.id}/activate`).set(bearer(key)).send({ revision: w.revision });
  if (res.status !== 200) throw new Error(`activeWorkflow: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function countRows(t: TestApp, table: string): Promise<number> {
  return Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n);
}
