import { exampleJourney } from '@outreach/workflows';
import { bearer, TestApp } from '../support/test-app';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely, field by field
type Loose = Record<string, any>;

/** The README's journey (libs/workflows/src/domain/example-journey.ts). */
export const exampleDefinition = exampleJourney;

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
