import { AgentReferenceRegistry } from './agent-reference-registry';
import { agentsTestbed } from '../testing';
import { DeleteAgent } from './delete-agent.use-case';

/* DeleteAgent: archive (idempotent) or permanent removal unless a registered module uses the agent. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const A1 = 'a0000000-0000-4000-8000-000000000001';
const A2 = 'a0000000-0000-4000-8000-000000000002';

describe('DeleteAgent', () => {
  let bed: ReturnType<typeof agentsTestbed>;
  let registry: AgentReferenceRegistry;
  let deleteAgent: DeleteAgent;
  let referenced: Set<string>;

  beforeEach(async () => {
    bed = agentsTestbed();
    registry = new AgentReferenceRegistry();
    referenced = new Set();
    registry.register(async (_workspaceId, agentId) => referenced.has(agentId));
    deleteAgent = new DeleteAgent(bed.agents, registry, bed.uow, bed.clock);
    await bed.agents.seed({ id: A1, workspaceId: W1, status: 'ACTIVE' });
  });

  describe('archive', () => {
    it('stores the agent archived with the time; archiving again keeps the first time', async () => {
      bed.clock.advance(1000);
      await expect(deleteAgent.archive(W1, A1)).resolves.toMatchObject({ id: A1, status: 'archived', archivedAt: '2026-03-01T09:00:01.000Z' });
      bed.clock.advance(1000);
      await expect(deleteAgent.archive(W1, A1)).resolves.toMatchObject({ status: 'archived', archivedAt: '2026-03-01T09:00:01.000Z' });
      expect(bed.agents.rows.get(A1)).toMatchObject({ status: 'archived', archivedAt: new Date('2026-03-01T09:00:01.000Z') });
    });

    it("not_found for an unknown or another workspace's agent", async () => {
      await expect(deleteAgent.archive(W2, A1)).rejects.toMatchObject({ code: 'not_found' });
      await expect(deleteAgent.archive(W1, A2)).rejects.toMatchObject({ code: 'not_found' });
      expect(bed.agents.rows.get(A1)!.status).toBe('ACTIVE');
    });
  });

  describe('deletePermanently', () => {
    it('removes an agent nobody uses (archived or not)', async () => {
      await bed.agents.seed({ id: A2, workspaceId: W1, fields: { name: 'Old' }, status: 'archived' });
      await deleteAgent.deletePermanently(W1, A1);
      await deleteAgent.deletePermanently(W1, A2);
      expect(bed.agents.rows.size).toBe(0);
    });

    it('in_use when a registered check says the agent is referenced; the agent stays', async () => {
      referenced.add(A1);
      await expect(deleteAgent.deletePermanently(W1, A1)).rejects.toMatchObject({ code: 'in_use' });
      expect(bed.agents.rows.has(A1)).toBe(true);
    });

    it("not_found for an unknown or another workspace's agent", async () => {
      await expect(deleteAgent.deletePermanently(W2, A1)).rejects.toMatchObject({ code: 'not_found' });
      await expect(deleteAgent.deletePermanently(W1, A2)).rejects.toMatchObject({ code: 'not_found' });
      expect(bed.agents.rows.has(A1)).toBe(true);
    });
  });
});
