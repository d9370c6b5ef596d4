import { ProvisionAgent } from '@outreach/agents';
import { bearer, TestApp } from './test-app';

/** A minimal valid agent body; `voice` names a catalogue voice (GET /voices). */
export function agentBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: `Agent ${Math.random().toString(36).slice(2, 10)}`,
    prompt: 'You are a friendly assistant calling {{contact_name}} about their enquiry.',
    voice: 'aria',
    ...overrides,
  };
}

/**
 * Creates an agent over HTTP (POST /agents with a minimal valid body plus `overrides`), runs its
 * provisioning in-process (what the worker's job does) and returns once it is ACTIVE.
 */
export async function createActiveAgent(
  t: TestApp,
  key: string,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; name: string }> {
  const created = await t.http.post('/agents').set(bearer(key)).send(agentBody(overrides));
  if (created.status !== 201) {
    throw new Error(`createActiveAgent: POST /agents answered ${created.status} ${JSON.stringify(created.body)}`);
  }
  const { id, name } = created.body as { id: string; name: string };
  await t.get(ProvisionAgent).execute(id);
  const read = await t.http.get(`/agents/${id}`).set(bearer(key));
  if (read.status !== 200 || read.body.status !== 'ACTIVE') {
    throw new Error(`createActiveAgent: agent ${id} is not ACTIVE after provisioning: ${read.status} ${JSON.stringify(read.body)}`);
  }
  return { id, name };
}
