import { inMemoryWorkspaceAdministration, seedWorkspace } from '../../../workspaces/src/testing';
import { InMemoryAgentRepository } from '../testing';
import { AgentQuota } from './agent-quota';

/* AgentQuota: serialises per workspace, counts live agents against the workspace's quota. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const id = (n: number) => `a0000000-0000-4000-8000-00000000000${n}`;

describe('AgentQuota', () => {
  let agents: InMemoryAgentRepository;
  let workspaces: ReturnType<typeof inMemoryWorkspaceAdministration>;
  let quota: AgentQuota;

  beforeEach(async () => {
    agents = new InMemoryAgentRepository();
    workspaces = inMemoryWorkspaceAdministration();
    quota = new AgentQuota(agents, workspaces.administration);
    await seedWorkspace(workspaces.workspaces, { id: W1, agentQuota: 2 });
  });

  it('lets a workspace below its quota through, after locking it', async () => {
    await agents.seed({ id: id(1), workspaceId: W1, fields: { name: 'One' } });
    await expect(quota.reserve(W1)).resolves.toBeUndefined();
    expect(agents.lockedWorkspaces).toEqual([W1]);
  });

  it('agent_limit_reached at the quota', async () => {
    await agents.seed({ id: id(1), workspaceId: W1, fields: { name: 'One' } });
    await agents.seed({ id: id(2), workspaceId: W1, fields: { name: 'Two' }, status: 'ACTIVE' });
    await expect(quota.reserve(W1)).rejects.toMatchObject({ code: 'agent_limit_reached' });
  });

  it("archived agents and other workspaces' agents do not count", async () => {
    await agents.seed({ id: id(1), workspaceId: W1, fields: { name: 'One' } });
    await agents.seed({ id: id(2), workspaceId: W1, fields: { name: 'Two' }, status: 'archived' });
    await agents.seed({ id: id(3), workspaceId: W2, fields: { name: 'Three' } });
    await expect(quota.reserve(W1)).resolves.toBeUndefined();
  });

  it('a quota of 0 allows no agent', async () => {
    await workspaces.administration.update(W1, { agentQuota: 0 });
    await expect(quota.reserve(W1)).rejects.toMatchObject({ code: 'agent_limit_reached' });
  });

  it('not_found for an unknown workspace', async () => {
    await expect(quota.reserve(W2)).rejects.toMatchObject({ code: 'not_found' });
  });
});
