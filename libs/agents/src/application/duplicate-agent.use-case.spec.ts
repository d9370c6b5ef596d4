import { seedWorkspace } from '../../../workspaces/src/testing';
import { agentsTestbed } from '../testing';
import { AgentJob, AgentQueue } from './agent-jobs';
import { DuplicateAgent } from './duplicate-agent.use-case';

/* DuplicateAgent: a PROVISIONING copy with a free "(copy)" name, within the quota. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const A1 = 'a0000000-0000-4000-8000-000000000001';
const A2 = 'a0000000-0000-4000-8000-000000000002';

describe('DuplicateAgent', () => {
  let bed: ReturnType<typeof agentsTestbed>;
  let duplicate: DuplicateAgent;

  beforeEach(async () => {
    bed = agentsTestbed();
    duplicate = new DuplicateAgent(bed.agents, bed.quota, bed.uow, bed.outbox, bed.clock);
    await seedWorkspace(bed.workspaces.workspaces, { id: W1, agentQuota: 5 });
    await bed.agents.seed({ id: A1, workspaceId: W1, fields: { name: 'Maya', greeting: 'Hello', maxCallDurationSecs: 120 }, status: 'ACTIVE' });
  });

  it('stores a PROVISIONING copy named "<name> (copy)" with the same settings, and its provision job', async () => {
    const copy = await duplicate.execute(W1, A1);
    expect(copy).toMatchObject({ name: 'Maya (copy)', greeting: 'Hello', maxCallDurationSecs: 120, status: 'PROVISIONING', provisionedAt: null, createdAt: '2026-03-01T09:00:00.000Z' });
    expect(copy.id).not.toBe(A1);
    expect(bed.agents.rows.get(copy.id)).toMatchObject({ workspaceId: W1, name: 'Maya (copy)', providerAgentId: null });
    expect(bed.outbox.jobs).toEqual([{ queue: AgentQueue.Agents, name: AgentJob.Provision, payload: { agentId: copy.id } }]);
    expect(bed.agents.rows.get(A1)).toMatchObject({ name: 'Maya', status: 'ACTIVE' });
  });

  it('numbers further copies: (copy 2), (copy 3)', async () => {
    await duplicate.execute(W1, A1);
    await expect(duplicate.execute(W1, A1)).resolves.toMatchObject({ name: 'Maya (copy 2)' });
    await expect(duplicate.execute(W1, A1)).resolves.toMatchObject({ name: 'Maya (copy 3)' });
  });

  it('cuts a long name so the copy stays within 100 characters', async () => {
    await bed.agents.seed({ id: A2, workspaceId: W1, fields: { name: 'x'.repeat(100) } });
    const copy = await duplicate.execute(W1, A2);
    expect(copy.name).toBe('x'.repeat(93) + ' (copy)');
    expect(copy.name).toHaveLength(100);
  });

  it('agent_limit_reached at the quota; nothing stored, no job', async () => {
    await bed.workspaces.administration.update(W1, { agentQuota: 1 });
    await expect(duplicate.execute(W1, A1)).rejects.toMatchObject({ code: 'agent_limit_reached' });
    expect(bed.agents.rows.size).toBe(1);
    expect(bed.outbox.jobs).toHaveLength(0);
  });

  it("not_found for an unknown or another workspace's agent", async () => {
    await expect(duplicate.execute(W2, A1)).rejects.toMatchObject({ code: 'not_found' });
    await expect(duplicate.execute(W1, A2)).rejects.toMatchObject({ code: 'not_found' });
    expect(bed.outbox.jobs).toHaveLength(0);
  });
});
