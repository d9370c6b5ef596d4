import { AppError } from '@outreach/core';
import { Agent, NewAgentInput } from './agent.aggregate';
import type { StudioConfig } from './agent.types';

const now = new Date('2026-11-21T10:00:00Z');
const later = new Date('2026-11-21T11:00:00Z');
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

const create = (fields: Partial<NewAgentInput> = {}) =>
  Agent.create({ id: 'a1', workspaceId: 'w1', now, fields: { name: 'Maya', voice: 'aria', prompt: 'Hi', ...fields } });

function codeOf(fn: () => unknown): { code: string; paths: string[] } {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, paths: (error.options.issues ?? []).map((i) => i.path) };
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('Agent', () => {
  it('starts PROVISIONING with the defaults', () => {
    const agent = create();
    expect(agent.toProps()).toMatchObject({ status: 'PROVISIONING', agentType: 'OUTBOUND', maxCallDurationSecs: 600, promptSource: 'custom', transferEnabled: false });
  });

  it('assembles the prompt from the studio config when none is sent, else prompt_required', () => {
    const agent = create({ prompt: undefined, studioConfig: studio });
    expect(agent.toProps().promptSource).toBe('studio');
    expect(agent.toProps().prompt).toContain('Book a demo');
    expect(codeOf(() => create({ prompt: undefined }))).toEqual({ code: 'prompt_required', paths: [] });
  });

  it('re-assembles an assembled prompt when the studio config changes; a sent prompt wins', () => {
    const agent = create({ prompt: undefined, studioConfig: studio });
    agent.update({ studioConfig: { ...studio, goal: 'Sell the upgrade' } }, later);
    expect(agent.toProps().prompt).toContain('Sell the upgrade');
    agent.update({ prompt: 'Custom now' }, later);
    agent.update({ studioConfig: { ...studio, goal: 'Ignored by the prompt' } }, later);
    expect(agent.toProps()).toMatchObject({ prompt: 'Custom now', promptSource: 'custom' });
  });

  it('refuses a transfer number that is not E.164, wherever it is (invalid_transfer_number)', () => {
    expect(codeOf(() => create({ transferNumber: '0044 20 7946 0000' }))).toEqual({ code: 'invalid_transfer_number', paths: ['transferNumber'] });
    expect(codeOf(() => create({ abilities: { transfer: { number: '12345' } } }))).toEqual({
      code: 'invalid_transfer_number',
      paths: ['abilities.transfer.number'],
    });
  });

  it('transferEnabled needs a number, also after merging a PATCH with the stored agent', () => {
    expect(codeOf(() => create({ transferEnabled: true }))).toEqual({ code: 'transfer_number_required', paths: ['transferNumber'] });
    const agent = create({ transferEnabled: true, transferNumber: '+14155550100' });
    expect(codeOf(() => agent.update({ transferNumber: null }, later)).code).toBe('transfer_number_required');
    expect(agent.toProps().transferNumber).toBe('+14155550100');
    agent.update({ transferEnabled: false, transferNumber: null }, later);
    expect(agent.toProps()).toMatchObject({ transferEnabled: false, transferNumber: null });
  });

  it('checks both flow graphs (invalid_body with the path)', () => {
    const graph = { nodes: [{ id: 'a', type: 'step' as const, title: 'A' }], edges: [{ id: 'e', source: 'a', target: 'b' }] };
    expect(codeOf(() => create({ flowGraph: graph }))).toEqual({ code: 'invalid_body', paths: ['flowGraph.edges.0.target'] });
    expect(codeOf(() => create({ studioConfig: { ...studio, flowGraph: graph } }))).toEqual({
      code: 'invalid_body',
      paths: ['studioConfig.flowGraph.edges.0.target'],
    });
  });

  it('a refused update leaves the agent as it was', () => {
    const agent = create();
    const before = agent.toProps();
    expect(codeOf(() => agent.update({ name: 'Other', transferEnabled: true }, later)).code).toBe('transfer_number_required');
    expect(agent.toProps()).toEqual(before);
  });

  it('follows its state table: provisioned once, archived for good (agent_archived on edit)', () => {
    const agent = create();
    expect(agent.markProvisioned('sbx_1', later)).toBe(true);
    expect(agent.status).toBe('ACTIVE');
    expect(agent.markProvisioned('sbx_2', later)).toBe(false);
    expect(agent.toProps().providerAgentId).toBe('sbx_1');
    agent.archive(later);
    agent.archive(new Date('2027-01-01T00:00:00Z'));
    expect(agent.toProps()).toMatchObject({ status: 'archived', archivedAt: later });
    expect(agent.markProvisioned('sbx_3', later)).toBe(false);
    expect(codeOf(() => agent.update({ name: 'x' }, later)).code).toBe('agent_archived');
  });

  it('lists the {{placeholders}} of prompt, greeting, messages and welcome message, sorted and unique', () => {
    const agent = create({
      prompt: 'Hello {{ contact_name }}, about {{plan}} and {{plan}}',
      greeting: 'Hi {{first_name}}',
      endCallMessage: 'Bye {{first_name}}',
      voicemailMessage: 'Call {{callback_number}}',
      transferMessage: 'Connecting you to {{manager}}',
      studioConfig: { ...studio, welcomeMessage: 'Welcome {{city}} {{not valid}}' },
    });
    expect(agent.variables()).toEqual(['callback_number', 'city', 'contact_name', 'first_name', 'manager', 'plan']);
  });

  it('duplicates into a new PROVISIONING agent with the same settings', () => {
    const agent = create({ greeting: 'Hey', studioConfig: studio });
    agent.markProvisioned('sbx', now);
    const copy = agent.duplicate({ id: 'a2', name: 'Maya (copy)', now: later });
    expect(copy.toProps()).toMatchObject({ id: 'a2', name: 'Maya (copy)', status: 'PROVISIONING', providerAgentId: null, greeting: 'Hey' });
    expect(copy.settings().studioConfig).toEqual(studio);
    expect(copy.settings().studioConfig).not.toBe(agent.settings().studioConfig);
  });

  it('names the function ids of both ability blocks with their paths', () => {
    const agent = create({ abilities: { functionIds: ['f1'] }, studioConfig: { ...studio, abilities: { functionIds: ['f2', 'f3'] } } });
    expect(agent.functionReferences()).toEqual([
      { path: 'abilities.functionIds.0', id: 'f1' },
      { path: 'studioConfig.abilities.functionIds.0', id: 'f2' },
      { path: 'studioConfig.abilities.functionIds.1', id: 'f3' },
    ]);
  });
});
