import { InMemoryAgentRepository } from '../testing';
import { RepositoryAgentDirectory } from './agent-directory';

/* RepositoryAgentDirectory: what other modules may know about an agent. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const A1 = 'a0000000-0000-4000-8000-000000000001';

describe('RepositoryAgentDirectory', () => {
  let agents: InMemoryAgentRepository;
  let directory: RepositoryAgentDirectory;

  beforeEach(async () => {
    agents = new InMemoryAgentRepository();
    directory = new RepositoryAgentDirectory(agents);
    await agents.seed({
      id: A1,
      workspaceId: W1,
      status: 'ACTIVE',
      fields: {
        name: 'Maya',
        agentType: 'INBOUND',
        maxCallDurationSecs: 90,
        extractionConfig: { prompt: 'Extract', keys: [{ name: 'budget', type: 'number', description: 'Monthly budget' }], includeToolLogs: true },
      },
    });
  });

  it('summarises the agent with its extraction keys', async () => {
    await expect(directory.find(W1, A1)).resolves.toEqual({
      id: A1,
      workspaceId: W1,
      name: 'Maya',
      status: 'ACTIVE',
      agentType: 'INBOUND',
      maxCallDurationSecs: 90,
      extractionKeys: [{ name: 'budget', type: 'number', description: 'Monthly budget' }],
    });
  });

  it('no extraction keys for an agent without extraction config', async () => {
    const A2 = 'a0000000-0000-4000-8000-000000000002';
    await agents.seed({ id: A2, workspaceId: W1, fields: { name: 'Plain' } });
    await expect(directory.find(W1, A2)).resolves.toMatchObject({ extractionKeys: [], status: 'PROVISIONING' });
  });

  it("null for another workspace's, unknown or malformed ids", async () => {
    await expect(directory.find(W2, A1)).resolves.toBeNull();
    await expect(directory.find(W1, 'a0000000-0000-4000-8000-0000000000ff')).resolves.toBeNull();
    await expect(directory.find(W1, 'agent-1')).resolves.toBeNull();
    await expect(directory.find('w1', A1)).resolves.toBeNull();
  });
});
