import { seedFunction } from '../../../functions/src/testing';
import { agentsTestbed, RecordingVoiceProvider } from '../testing';
import { UpdateAgent } from './update-agent.use-case';

/* UpdateAgent: PATCH semantics, reference checks on the changed fields only, refusals store nothing. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const A1 = 'a0000000-0000-4000-8000-000000000001';
const A2 = 'a0000000-0000-4000-8000-000000000002';
const FN = 'ffffffff-ffff-4fff-8fff-ffffffffffff';

describe('UpdateAgent', () => {
  let bed: ReturnType<typeof agentsTestbed>;
  let updateAgent: UpdateAgent;
  let provider: RecordingVoiceProvider;

  beforeEach(async () => {
    bed = agentsTestbed();
    provider = new RecordingVoiceProvider();
    updateAgent = new UpdateAgent(bed.agents, bed.references, bed.uow, bed.clock, provider, bed.outbox);
    await bed.agents.seed({ id: A1, workspaceId: W1, fields: { name: 'Maya' }, status: 'ACTIVE' });
  });

  it('applies the given fields, keeps the others and stores the result', async () => {
    bed.clock.advance(60_000);
    const view = await updateAgent.execute(W1, A1, { greeting: 'Hi there', maxCallDurationSecs: 300 });
    expect(view).toMatchObject({ name: 'Maya', greeting: 'Hi there', maxCallDurationSecs: 300, status: 'ACTIVE', updatedAt: '2026-03-01T09:01:00.000Z' });
    expect(bed.agents.rows.get(A1)).toMatchObject({ greeting: 'Hi there', maxCallDurationSecs: 300, voice: 'aria' });
    expect(bed.uow.runs).toBe(1);
  });

  it('no_fields_to_update without a defined field', async () => {
    await expect(updateAgent.execute(W1, A1, {})).rejects.toMatchObject({ code: 'no_fields_to_update' });
    await expect(updateAgent.execute(W1, A1, { greeting: undefined })).rejects.toMatchObject({ code: 'no_fields_to_update' });
    expect(bed.uow.runs).toBe(0);
  });

  it("not_found for an unknown or another workspace's agent", async () => {
    await expect(updateAgent.execute(W2, A1, { greeting: 'x' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(updateAgent.execute(W1, A2, { greeting: 'x' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('agent_archived for an archived agent, which stays as it was', async () => {
    await bed.agents.seed({ id: A2, workspaceId: W1, fields: { name: 'Old' }, status: 'archived' });
    await expect(updateAgent.execute(W1, A2, { greeting: 'x' })).rejects.toMatchObject({ code: 'agent_archived' });
    expect(bed.agents.rows.get(A2)).toMatchObject({ greeting: null, status: 'archived' });
  });

  it('invalid_body for an unknown voice; the stored agent is untouched', async () => {
    await expect(updateAgent.execute(W1, A1, { voice: 'nobody', greeting: 'x' })).rejects.toMatchObject({
      code: 'invalid_body',
      options: { issues: [{ path: 'voice' }] },
    });
    expect(bed.agents.rows.get(A1)).toMatchObject({ voice: 'aria', greeting: null });
  });

  it('background_audio_not_found for an unknown background sound; null clears it', async () => {
    await expect(updateAgent.execute(W1, A1, { backgroundAudioId: 'jungle' })).rejects.toMatchObject({ code: 'background_audio_not_found' });
    await updateAgent.execute(W1, A1, { backgroundAudioId: 'office' });
    await expect(updateAgent.execute(W1, A1, { backgroundAudioId: null })).resolves.toMatchObject({ backgroundAudioId: null });
  });

  it('checks function references only when abilities change: a function deleted later does not block other edits', async () => {
    await seedFunction(bed.functions, { id: FN, workspaceId: W1 });
    await updateAgent.execute(W1, A1, { abilities: { functionIds: [FN] } });
    await bed.functions.delete(W1, FN);

    await expect(updateAgent.execute(W1, A1, { greeting: 'Still editable' })).resolves.toMatchObject({ greeting: 'Still editable' });
    await expect(updateAgent.execute(W1, A1, { abilities: { functionIds: [FN] } })).rejects.toMatchObject({
      code: 'invalid_body',
      options: { issues: [{ path: 'abilities.functionIds.0' }] },
    });
  });

  it("name_taken when renamed to another agent's name; the stored name stays", async () => {
    await bed.agents.seed({ id: A2, workspaceId: W1, fields: { name: 'Other' } });
    await expect(updateAgent.execute(W1, A1, { name: 'other' })).rejects.toMatchObject({ code: 'name_taken' });
    expect(bed.agents.rows.get(A1)!.name).toBe('Maya');
  });

  it('transfer_number_required and invalid_transfer_number from the aggregate, nothing stored', async () => {
    await expect(updateAgent.execute(W1, A1, { transferEnabled: true })).rejects.toMatchObject({ code: 'transfer_number_required' });
    await expect(updateAgent.execute(W1, A1, { transferNumber: '12345' })).rejects.toMatchObject({ code: 'invalid_transfer_number' });
    expect(bed.agents.rows.get(A1)).toMatchObject({ transferEnabled: false, transferNumber: null });
  });

  it('an edit of an ACTIVE agent whose provider keeps agents\' config writes a sync job; none for the sandbox or a refused edit', async () => {
    await updateAgent.execute(W1, A1, { greeting: 'Hi' });
    expect(bed.outbox.jobs).toEqual([]);
    provider.hosting = true;
    bed.clock.advance(1000);
    await updateAgent.execute(W1, A1, { greeting: 'Hello' });
    expect(bed.outbox.jobs).toEqual([
      { queue: 'agents', name: 'sync', payload: { agentId: A1 }, jobId: `agent-sync-${A1}-${bed.clock.now().getTime()}` },
    ]);
  });
});
