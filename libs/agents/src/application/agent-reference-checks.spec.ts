import { InMemoryFunctionRepository, seedFunction } from '../../../functions/src/testing';
import { Agent, NewAgentInput } from '../domain/agent.aggregate';
import { StudioConfig } from '../domain/agent.types';
import { agentReferenceChecks, InMemoryAgentCatalogue } from '../testing';
import { AgentReferenceChecks } from './agent-reference-checks';

/* AgentReferenceChecks: voice, background audio and custom functions, for the fields being set. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const FN = 'ffffffff-ffff-4fff-8fff-ffffffffffff';
const FOREIGN_FN = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';
const now = new Date('2026-03-01T09:00:00Z');
const studio: StudioConfig = {
  agentName: 'Maya',
  companyName: 'Acme',
  languages: ['English'],
  primaryLanguage: 'English',
  gender: 'female',
  tone: 'formal',
  goal: 'Book a demo',
  flowSteps: [],
  faqs: [],
};

const agent = (fields: Partial<NewAgentInput> = {}) =>
  Agent.create({ id: 'a0000000-0000-4000-8000-000000000001', workspaceId: W1, now, fields: { name: 'Maya', voice: 'aria', prompt: 'p', ...fields } });

describe('AgentReferenceChecks', () => {
  let catalogue: InMemoryAgentCatalogue;
  let functions: InMemoryFunctionRepository;
  let checks: AgentReferenceChecks;

  beforeEach(async () => {
    catalogue = new InMemoryAgentCatalogue();
    functions = new InMemoryFunctionRepository();
    checks = agentReferenceChecks(catalogue, functions);
    await seedFunction(functions, { id: FN, workspaceId: W1 });
    await seedFunction(functions, { id: FOREIGN_FN, workspaceId: W2 });
  });

  it('accepts known references', async () => {
    const a = agent({ backgroundAudioId: 'office', abilities: { functionIds: [FN] }, studioConfig: { ...studio, abilities: { functionIds: [FN] } } });
    await expect(checks.assert(a, ['voice', 'backgroundAudioId', 'abilities', 'studioConfig'])).resolves.toBeUndefined();
  });

  it('invalid_body with every offending path at once: voice and function ids in both places', async () => {
    const a = agent({ voice: 'nobody', abilities: { functionIds: [FN, FOREIGN_FN] }, studioConfig: { ...studio, abilities: { functionIds: ['not-a-uuid'] } } });
    await expect(checks.assert(a, ['voice', 'abilities', 'studioConfig'])).rejects.toMatchObject({
      code: 'invalid_body',
      options: {
        issues: [
          { path: 'voice' },
          { path: 'abilities.functionIds.1' },
          { path: 'studioConfig.abilities.functionIds.0' },
        ],
      },
    });
  });

  it('checks only the fields being set', async () => {
    const a = agent({ voice: 'nobody', backgroundAudioId: 'jungle', abilities: { functionIds: [FOREIGN_FN] } });
    await expect(checks.assert(a, ['name', 'greeting'])).resolves.toBeUndefined();
    await expect(checks.assert(a, ['studioConfig'])).resolves.toBeUndefined();
    await expect(checks.assert(a, ['abilities'])).rejects.toMatchObject({ code: 'invalid_body', options: { issues: [{ path: 'abilities.functionIds.0' }] } });
  });

  it('background_audio_not_found for an unknown sound; null is no reference', async () => {
    await expect(checks.assert(agent({ backgroundAudioId: 'jungle' }), ['backgroundAudioId'])).rejects.toMatchObject({ code: 'background_audio_not_found' });
    await expect(checks.assert(agent({ backgroundAudioId: null }), ['backgroundAudioId'])).resolves.toBeUndefined();
  });

  it('reports invalid_body before background_audio_not_found', async () => {
    await expect(checks.assert(agent({ voice: 'nobody', backgroundAudioId: 'jungle' }), ['voice', 'backgroundAudioId'])).rejects.toMatchObject({
      code: 'invalid_body',
    });
  });
});
