import { SYSTEM_VARIABLES } from '../domain/template-variables';
import { InMemoryAgentRepository } from '../testing';
import { AgentQueries } from './agent-queries';

/* AgentQueries: the workspace's agents in creation order, and one agent. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const A1 = 'a0000000-0000-4000-8000-000000000001';
const A2 = 'a0000000-0000-4000-8000-000000000002';
const A3 = 'a0000000-0000-4000-8000-000000000003';

describe('AgentQueries', () => {
  let agents: InMemoryAgentRepository;
  let queries: AgentQueries;

  beforeEach(async () => {
    agents = new InMemoryAgentRepository();
    queries = new AgentQueries(agents);
    await agents.seed({ id: A2, workspaceId: W1, fields: { name: 'Second' }, now: new Date('2026-01-02T00:00:00Z'), status: 'archived' });
    await agents.seed({ id: A1, workspaceId: W1, fields: { name: 'First', prompt: 'Hi {{first_name}}' }, now: new Date('2026-01-01T00:00:00Z') });
    await agents.seed({ id: A3, workspaceId: W2, fields: { name: 'Foreign' } });
  });

  it("lists the workspace's agents oldest first, archived included", async () => {
    const list = await queries.list(W1);
    expect(list.map((a) => [a.name, a.status])).toEqual([
      ['First', 'PROVISIONING'],
      ['Second', 'archived'],
    ]);
  });

  it('an empty list for a workspace without agents', async () => {
    await expect(queries.list('33333333-3333-4333-8333-333333333333')).resolves.toEqual([]);
  });

  it('gets one agent as the API shows it', async () => {
    await expect(queries.get(W1, A1)).resolves.toMatchObject({
      id: A1,
      name: 'First',
      variables: ['first_name'],
      systemVariables: [...SYSTEM_VARIABLES],
      createdAt: '2026-01-01T00:00:00.000Z',
      archivedAt: null,
    });
  });

  it("not_found for an unknown or another workspace's agent", async () => {
    await expect(queries.get(W1, A3)).rejects.toMatchObject({ code: 'not_found' });
    await expect(queries.get(W1, 'a0000000-0000-4000-8000-0000000000ff')).rejects.toMatchObject({ code: 'not_found' });
  });
});
