import { AppError } from '@outreach/core';
import { FixedClock, RollbackUnitOfWork } from '../../../platform/src/testing';
import { exampleDefinition, InMemoryWorkflowFeature, InMemoryWorkflowReferences, InMemoryWorkflowRepository } from '../testing';
import { WorkflowModuleDirectory } from './workflow-directory';
import { Workflows } from './workflows';

const WS = '0d7c6f58-0b61-4c33-9a44-2f7a3f0e0001';
const AGENT = '11111111-1111-4111-8111-111111111111';
const TEMPLATE = '22222222-2222-4222-8222-222222222222';

async function codeOf(work: Promise<unknown>): Promise<{ code: string; currentRevision?: number; details?: unknown }> {
  try {
    await work;
  } catch (error) {
    const e = error as AppError;
    return { code: e.code, currentRevision: e.options.currentRevision, details: e.options.extra?.details };
  }
  throw new Error('no error');
}

describe('Workflows (use cases over in-memory ports)', () => {
  const clock = new FixedClock(new Date('2026-11-25T10:00:00Z'));
  let repo: InMemoryWorkflowRepository;
  let refs: InMemoryWorkflowReferences;
  let uow: RollbackUnitOfWork;
  let workflows: Workflows;

  beforeEach(() => {
    repo = new InMemoryWorkflowRepository();
    refs = new InMemoryWorkflowReferences();
    refs.add(WS, 'agent', AGENT);
    refs.add(WS, 'whatsapp_template', TEMPLATE);
    uow = new RollbackUnitOfWork([repo]);
    workflows = new Workflows(repo, refs, uow, clock);
  });

  it('creates a DRAFT at revision 1 with its revision stored', async () => {
    const view = await workflows.create(WS, { name: 'J', definition: exampleDefinition() });
    expect(view).toMatchObject({ status: 'DRAFT', revision: 1, updatedAt: '2026-11-25T10:00:00.000Z' });
    expect(await repo.revision(view.id, 1)).toEqual(exampleDefinition());
  });

  it('refuses a definition naming an unknown agent with its path; nothing stored', async () => {
    const other = new InMemoryWorkflowReferences();
    workflows = new Workflows(repo, other, uow, clock);
    const refused = await codeOf(workflows.create(WS, { name: 'J', definition: exampleDefinition() }));
    expect(refused.code).toBe('workflow_invalid');
    expect(refused.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'nodes[1].config.agentId' })]));
    expect(repo.rows.size).toBe(0);
  });

  it('a writer that lost the race between its read and its write gets 409 with the winner revision; nothing of it is stored', async () => {
    const { id } = await workflows.create(WS, { name: 'J', definition: exampleDefinition() });
    repo.beforeSave = () => {
      const row = repo.rows.get(id)!;
      repo.rows.set(id, { ...row, name: 'Winner', revision: 2 });
    };
    const lost = await codeOf(workflows.update(WS, id, { revision: 1, name: 'Loser' }));
    expect(lost).toMatchObject({ code: 'concurrent_modification', currentRevision: 2 });
    // (The simulated winner wrote inside the loser's in-memory unit, so the rollback undid it too.)
    expect(repo.rows.get(id)!.name).not.toBe('Loser');
    expect(uow.rolledBack).toBe(1);
  });

  it('delete needs the revision, asked after the lookup: unknown ids are 404 first', async () => {
    const { id } = await workflows.create(WS, { name: 'J', definition: exampleDefinition() });
    expect((await codeOf(workflows.remove(WS, '7a0e6f43-4f43-4a8e-9a55-3c1f0f1b0a01', undefined))).code).toBe('workflow_not_found');
    expect((await codeOf(workflows.remove(WS, id, undefined))).code).toBe('invalid_query');
    expect((await codeOf(workflows.remove(WS, id, 7))).code).toBe('concurrent_modification');
    await workflows.remove(WS, id, 1);
    expect((await codeOf(workflows.get(WS, id))).code).toBe('workflow_not_found');
  });

  it('the directory campaigns asks: status when the feature is on, null otherwise or for unknown ids', async () => {
    const feature = new InMemoryWorkflowFeature();
    const directory = new WorkflowModuleDirectory(repo, feature);
    const { id } = await workflows.create(WS, { name: 'J', definition: exampleDefinition() });
    expect(await directory.status(WS, id)).toBeNull();
    feature.enabledFor.add(WS);
    expect(await directory.status(WS, id)).toBe('DRAFT');
    await workflows.activate(WS, id, 1);
    expect(await directory.status(WS, id)).toBe('ACTIVE');
    expect(await directory.status(WS, 'not-a-uuid')).toBeNull();
    expect(await directory.status('0d7c6f58-0b61-4c33-9a44-2f7a3f0e0002', id)).toBeNull();
  });

  it('an agent named by a live workflow is referenced until the workflow is archived', async () => {
    const { id } = await workflows.create(WS, { name: 'J', definition: exampleDefinition() });
    expect(await repo.referencesAgent(WS, AGENT)).toBe(true);
    await workflows.archive(WS, id, 1);
    expect(await repo.referencesAgent(WS, AGENT)).toBe(false);
  });
});
