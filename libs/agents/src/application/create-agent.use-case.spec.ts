import { seedFunction } from '../../../functions/src/testing';
import { seedWorkspace } from '../../../workspaces/src/testing';
import { agentsTestbed } from '../testing';
import { AgentJob, AgentQueue } from './agent-jobs';
import { CreateAgent } from './create-agent.use-case';

/* CreateAgent with every port faked: quota, references, outbox, in one unit of work. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const FN = 'ffffffff-ffff-4fff-8fff-ffffffffffff';

describe('CreateAgent', () => {
  let bed: ReturnType<typeof agentsTestbed>;
  let createAgent: CreateAgent;

  beforeEach(async () => {
    bed = agentsTestbed();
    createAgent = new CreateAgent(bed.agents, bed.references, bed.quota, bed.uow, bed.outbox, bed.clock);
    await seedWorkspace(bed.workspaces.workspaces, { id: W1, agentQuota: 2 });
  });

  it('stores a PROVISIONING agent and writes its provision job in the same unit of work', async () => {
    const view = await createAgent.execute(W1, { name: 'Maya', voice: 'aria', prompt: 'Hello {{first_name}}' });

    expect(view).toMatchObject({ name: 'Maya', voice: 'aria', status: 'PROVISIONING', promptSource: 'custom', variables: ['first_name'], createdAt: '2026-03-01T09:00:00.000Z' });
    expect(bed.agents.rows.get(view.id)).toMatchObject({ workspaceId: W1, name: 'Maya', status: 'PROVISIONING' });
    expect(bed.outbox.jobs).toEqual([{ queue: AgentQueue.Agents, name: AgentJob.Provision, payload: { agentId: view.id } }]);
    expect(bed.uow.runs).toBe(1);
    expect(bed.agents.lockedWorkspaces).toEqual([W1]);
  });

  it('agent_limit_reached at the quota: nothing stored, no job; archived agents do not count', async () => {
    await bed.agents.seed({ id: 'a0000000-0000-4000-8000-000000000001', workspaceId: W1, fields: { name: 'One' } });
    await bed.agents.seed({ id: 'a0000000-0000-4000-8000-000000000002', workspaceId: W1, fields: { name: 'Two' }, status: 'archived' });
    await createAgent.execute(W1, { name: 'Three', voice: 'aria', prompt: 'p' });

    await expect(createAgent.execute(W1, { name: 'Four', voice: 'aria', prompt: 'p' })).rejects.toMatchObject({ code: 'agent_limit_reached' });
    expect(bed.agents.rows.size).toBe(3);
    expect(bed.outbox.jobs).toHaveLength(1);
  });

  it('name_taken for a name the workspace uses in any case; no job is written', async () => {
    await bed.agents.seed({ id: 'a0000000-0000-4000-8000-000000000001', workspaceId: W1, fields: { name: 'Maya' } });
    await expect(createAgent.execute(W1, { name: 'MAYA', voice: 'aria', prompt: 'p' })).rejects.toMatchObject({ code: 'name_taken' });
    expect(bed.agents.rows.size).toBe(1);
    expect(bed.outbox.jobs).toHaveLength(0);
  });

  it('invalid_body for an unknown voice, before any write', async () => {
    await expect(createAgent.execute(W1, { name: 'Maya', voice: 'nobody', prompt: 'p' })).rejects.toMatchObject({
      code: 'invalid_body',
      options: { issues: [{ path: 'voice' }] },
    });
    expect(bed.uow.runs).toBe(0);
    expect(bed.agents.rows.size).toBe(0);
  });

  it("invalid_body at the item for a function id that is not the workspace's; a workspace function is accepted", async () => {
    await seedFunction(bed.functions, { id: FN, workspaceId: W2 });
    await expect(createAgent.execute(W1, { name: 'Maya', voice: 'aria', prompt: 'p', abilities: { functionIds: [FN] } })).rejects.toMatchObject({
      code: 'invalid_body',
      options: { issues: [{ path: 'abilities.functionIds.0' }] },
    });
    expect(bed.agents.rows.size).toBe(0);

    await seedWorkspace(bed.workspaces.workspaces, { id: W2 });
    await expect(createAgent.execute(W2, { name: 'Maya', voice: 'aria', prompt: 'p', abilities: { functionIds: [FN] } })).resolves.toMatchObject({
      abilities: { functionIds: [FN] },
    });
  });

  it('background_audio_not_found for an unknown background sound', async () => {
    await expect(createAgent.execute(W1, { name: 'Maya', voice: 'aria', prompt: 'p', backgroundAudioId: 'jungle' })).rejects.toMatchObject({
      code: 'background_audio_not_found',
    });
    await expect(createAgent.execute(W1, { name: 'Maya', voice: 'aria', prompt: 'p', backgroundAudioId: 'office' })).resolves.toMatchObject({
      backgroundAudioId: 'office',
    });
  });

  it('prompt_required without prompt or studio config (the aggregate refuses before any write)', async () => {
    await expect(createAgent.execute(W1, { name: 'Maya', voice: 'aria' })).rejects.toMatchObject({ code: 'prompt_required' });
    expect(bed.agents.rows.size).toBe(0);
    expect(bed.outbox.jobs).toHaveLength(0);
  });

  it('not_found when the workspace is unknown', async () => {
    await expect(createAgent.execute('33333333-3333-4333-8333-333333333333', { name: 'Maya', voice: 'aria', prompt: 'p' })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(bed.agents.rows.size).toBe(0);
  });
});
