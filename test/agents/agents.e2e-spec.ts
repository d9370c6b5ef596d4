import { AgentDirectory, AgentReferenceRegistry, CompileAgentPrompt } from '@outreach/agents';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { agentBody, createActiveAgent } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';

type Res = { status: number; body: Record<string, unknown> };

const studio = () => ({
  agentName: 'Maya',
  designation: 'Sales advisor',
  companyName: 'Acme Homes',
  languages: ['English', 'Hindi'],
  primaryLanguage: 'English',
  gender: 'female',
  tone: 'empathetic',
  goal: 'Book a site visit for Riverside.',
  welcomeMessage: 'Hi {{contact_name}}, Maya here.',
  guardrails: ['no_fabrication'],
  flowSteps: [
    { id: 's1', title: 'Confirm identity' },
    { id: 's2', title: 'Pitch', detail: 'Mention the river view' },
  ],
  faqs: [{ question: 'Where is it?', answer: 'Near the airport.' }],
  closingBehavior: 'callback',
});

function expectError(res: Res, status: number, code: string): void {
  expect({ status: res.status, error: res.body.error }).toEqual({ status, error: code });
  expect(typeof res.body.requestId).toBe('string');
  expect(JSON.stringify(res.body)).not.toMatch(/\bat .+\.(ts|js):\d+/);
}

function issuePaths(res: Res): string[] {
  return [...new Set(((res.body.issues ?? []) as Array<{ path: string }>).map((i) => i.path))];
}

function expectInvalid(res: Res, ...paths: string[]): void {
  expectError(res, 400, 'invalid_body');
  for (const path of paths) expect(issuePaths(res)).toContain(path);
}

describe('Agents (issue 3)', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed();
  });

  const post = (body: unknown, key = ws.key) => t.http.post('/agents').set(bearer(key)).send(body as object);
  const patch = (id: string, body: unknown, key = ws.key) => t.http.patch(`/agents/${id}`).set(bearer(key)).send(body as object);
  const get = (id: string, key = ws.key) => t.http.get(`/agents/${id}`).set(bearer(key));
  const countAgents = async () => Number((await t.dataSource.query(`SELECT count(*) AS n FROM agents`))[0].n);

  describe('create and read', () => {
    it('creates a PROVISIONING agent with defaults, variables and system variables, and queues its provisioning', async () => {
      const res = await post(agentBody({ name: 'Maya', greeting: 'Hello {{first_name}}', preCallVariables: ['first_name', 'plan'] }));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name: 'Maya',
        voice: 'aria',
        status: 'PROVISIONING',
        agentType: 'OUTBOUND',
        greeting: 'Hello {{first_name}}',
        preCallVariables: ['first_name', 'plan'],
        variables: ['contact_name', 'first_name'],
        extractionConfig: null,
        maxCallDurationSecs: 600,
        transferEnabled: false,
        transferNumber: null,
        promptSource: 'custom',
      });
      expect(res.body.systemVariables).toEqual(expect.arrayContaining(['caller_phone', 'contact_name', 'current_date', 'current_time', 'timezone']));
      const outbox = await t.dataSource.query(`SELECT queue, name, payload FROM outbox`);
      expect(outbox).toEqual([{ queue: 'agents', name: 'provision', payload: { agentId: res.body.id } }]);
    });

    it('lists and reads agents under /agents and /v1/agents (unpaginated)', async () => {
      const a = await createActiveAgent(t, ws.key, { name: 'First' });
      const b = await createActiveAgent(t, ws.key, { name: 'Second' });
      for (const path of ['/agents', '/v1/agents']) {
        const list = await t.http.get(path).set(bearer(ws.key));
        expect(list.status).toBe(200);
        expect(list.body.map((x: { id: string }) => x.id)).toEqual([a.id, b.id]);
      }
      const one = await t.http.get(`/v1/agents/${a.id}`).set(bearer(ws.key));
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ id: a.id, name: 'First', status: 'ACTIVE' });
    });

    it('stores every field it accepts and returns it', async () => {
      const body = agentBody({
        agentType: 'INBOUND',
        enableRecording: false,
        endCallEnabled: true,
        endCallMessage: 'Bye {{first_name}}',
        endCallTriggers: ['CALLER_GOODBYE', 'GOAL_COMPLETED'],
        maxCallDurationSecs: 3600,
        backgroundAudioId: 'office',
        backgroundAudioVolume: 0.4,
        voicemailDetectionEnabled: true,
        voicemailMessage: 'Call {{callback}}',
        screenerHandlingEnabled: true,
        transferEnabled: true,
        transferNumber: '+14155550100',
        transferMessage: 'Connecting',
        transferTriggers: ['FRUSTRATED', 'BILLING'],
        extractionConfig: { prompt: 'Extract', keys: [{ name: 'budget', type: 'number', description: 'Budget' }], includeToolLogs: true },
        abilities: { callback: true, booking: { types: ['site_visit'] }, transfer: { number: '+14155550101', triggers: ['ASKS_MANAGER'] } },
        flowGraph: {
          nodes: [
            { id: 'a', type: 'step', title: 'Greet', position: { x: 0, y: 0 } },
            { id: 'b', type: 'end', title: 'Close' },
          ],
          edges: [{ id: 'e', source: 'a', target: 'b', condition: 'done' }],
        },
        studioConfig: studio(),
      });
      const res = await post(body);
      expect(res.status).toBe(201);
      const { name: _n, ...rest } = body;
      expect(res.body).toMatchObject(rest);
      expect((await get(res.body.id)).body).toMatchObject(rest);
      expect(res.body.variables).toEqual(['callback', 'contact_name', 'first_name']);
    });

    it('assembles the prompt from studioConfig when none is sent; a new studioConfig re-assembles it', async () => {
      const res = await post({ name: 'Studio', voice: 'aria', studioConfig: studio() });
      expect(res.status).toBe(201);
      expect(res.body.promptSource).toBe('studio');
      const prompt = res.body.prompt as string;
      for (const part of ['Maya', 'Acme Homes', 'Book a site visit for Riverside.', 'empathetic', 'English, Hindi', 'Confirm identity', 'Where is it?', 'Never invent facts', 'callback']) {
        expect(prompt).toContain(part);
      }
      expect(res.body.variables).toEqual(['contact_name']);
      const changed = await patch(res.body.id, { studioConfig: { ...studio(), goal: 'Sell the penthouse.' } });
      expect(changed.status).toBe(200);
      expect(changed.body.prompt).toContain('Sell the penthouse.');
      const custom = await patch(res.body.id, { prompt: 'My own words' });
      expect(custom.body).toMatchObject({ prompt: 'My own words', promptSource: 'custom' });
    });

    it('400 prompt_required when there is no prompt and nothing to assemble it from', async () => {
      expectError(await post({ name: 'Empty', voice: 'aria' }), 400, 'prompt_required');
      expect(await countAgents()).toBe(0);
    });
  });

  describe('bounds (400 invalid_body with the path)', () => {
    it('string length', async () => {
      expectInvalid(await post(agentBody({ name: 'x'.repeat(101) })), 'name');
      expectInvalid(await post(agentBody({ prompt: '' })), 'prompt');
      expectInvalid(await post(agentBody({ greeting: 'g'.repeat(2001) })), 'greeting');
      expectInvalid(await post(agentBody({ studioConfig: { ...studio(), flowSteps: [{ id: 'a', title: 'ok' }, { id: 'b', title: 'x'.repeat(201) }] } })), 'studioConfig.flowSteps.1.title');
      expectInvalid(await post(agentBody({ transferNumber: '+1'.padEnd(33, '5') })), 'transferNumber');
    });

    it('array size', async () => {
      const vars = Array.from({ length: 101 }, (_, i) => `v${i}`);
      expectInvalid(await post(agentBody({ preCallVariables: vars })), 'preCallVariables');
      expectInvalid(await post(agentBody({ endCallTriggers: ['IDLE', 'IDLE', 'IDLE', 'IDLE', 'IDLE'] })), 'endCallTriggers');
      expectInvalid(await post(agentBody({ studioConfig: { ...studio(), languages: [] } })), 'studioConfig.languages');
      expectInvalid(await post(agentBody({ studioConfig: { ...studio(), guardrails: Array(11).fill('no_fabrication') } })), 'studioConfig.guardrails');
      expectInvalid(await post(agentBody({ abilities: { functionIds: Array(21).fill('f') } })), 'abilities.functionIds');
      expectInvalid(await post(agentBody({ abilities: { booking: { types: [] } } })), 'abilities.booking.types');
      expectInvalid(await post(agentBody({ extractionConfig: { prompt: 'p', keys: [] } })), 'extractionConfig.keys');
      const nodes = Array.from({ length: 41 }, (_, i) => ({ id: `n${i}`, type: 'step', title: 'N' }));
      expectInvalid(await post(agentBody({ flowGraph: { nodes, edges: [] } })), 'flowGraph.nodes');
    });

    it('enum', async () => {
      expectInvalid(await post(agentBody({ agentType: 'SIDEWAYS' })), 'agentType');
      expectInvalid(await post(agentBody({ endCallTriggers: ['HANG_UP'] })), 'endCallTriggers');
      expectInvalid(await post(agentBody({ transferTriggers: ['BORED'] })), 'transferTriggers');
      expectInvalid(await post(agentBody({ studioConfig: { ...studio(), tone: 'grumpy' } })), 'studioConfig.tone');
      expectInvalid(await post(agentBody({ studioConfig: { ...studio(), overrides: { mixRatio: 'french_leaning' } } })), 'studioConfig.overrides.mixRatio');
      expectInvalid(await post(agentBody({ studioConfig: { ...studio(), promptSpec: 3 } })), 'studioConfig.promptSpec');
      expectInvalid(await post(agentBody({ extractionConfig: { prompt: 'p', keys: [{ name: 'k', type: 'money', description: 'd' }] } })), 'extractionConfig.keys.0.type');
    });

    it('pattern', async () => {
      expectInvalid(await post(agentBody({ preCallVariables: ['ok_name', '1st'] })), 'preCallVariables');
      expectInvalid(await post(agentBody({ extractionConfig: { prompt: 'p', keys: [{ name: 'bad-name', type: 'string', description: 'd' }] } })), 'extractionConfig.keys.0.name');
    });

    it('number range', async () => {
      expectInvalid(await post(agentBody({ maxCallDurationSecs: 59 })), 'maxCallDurationSecs');
      expectInvalid(await post(agentBody({ maxCallDurationSecs: 3601 })), 'maxCallDurationSecs');
      expectInvalid(await post(agentBody({ maxCallDurationSecs: 90.5 })), 'maxCallDurationSecs');
      expectInvalid(await post(agentBody({ backgroundAudioVolume: 1.5 })), 'backgroundAudioVolume');
      expectInvalid(await post(agentBody({ flowGraph: { nodes: [{ id: 'a', type: 'step', title: 'A', position: { x: 'left', y: 0 } }], edges: [] } })), 'flowGraph.nodes.0.position.x');
    });

    it('nested required member', async () => {
      const { companyName: _c, ...noCompany } = studio();
      expectInvalid(await post(agentBody({ studioConfig: noCompany })), 'studioConfig.companyName');
      expectInvalid(await post(agentBody({ studioConfig: { ...studio(), flowSteps: [{ id: 'a', title: 'A' }, { id: 'b', title: 'B' }, { id: 'c', title: 'C' }, { id: 'd' }] } })), 'studioConfig.flowSteps.3.title');
      expectInvalid(await post(agentBody({ studioConfig: { ...studio(), faqs: [{ question: 'Q?' }] } })), 'studioConfig.faqs.0.answer');
      expectInvalid(await post(agentBody({ extractionConfig: { keys: [{ name: 'k', type: 'string', description: 'd' }] } })), 'extractionConfig.prompt');
      expectInvalid(await post(agentBody({ abilities: { whatsapp: { templateIds: ['t'] } } })), 'abilities.whatsapp.collectionIds');
      expectInvalid(await post(agentBody({ flowGraph: { nodes: [] } })), 'flowGraph.edges');
      expectInvalid(await post({ prompt: 'p', voice: 'aria' }), 'name');
      expectInvalid(await post({ name: 'n', prompt: 'p' }), 'voice');
    });

    it('graph reference: every edge names existing nodes, node ids are unique', async () => {
      const nodes = [
        { id: 'a', type: 'step', title: 'A' },
        { id: 'b', type: 'branch', title: 'B' },
      ];
      const edges = [
        { id: 'e0', source: 'a', target: 'b' },
        { id: 'e1', source: 'b', target: 'a' },
        { id: 'e2', source: 'b', target: 'ghost' },
      ];
      const res = await post(agentBody({ flowGraph: { nodes, edges } }));
      expectInvalid(res, 'flowGraph.edges.2.target');
      expect(issuePaths(res)).toEqual(['flowGraph.edges.2.target']);
      expectInvalid(await post(agentBody({ flowGraph: { nodes: [...nodes, { id: 'a', type: 'end', title: 'again' }], edges: [] } })), 'flowGraph.nodes.2.id');
      expectInvalid(await post(agentBody({ studioConfig: { ...studio(), flowGraph: { nodes, edges: [{ id: 'x', source: 'nope', target: 'a' }] } } })), 'studioConfig.flowGraph.edges.0.source');
      expect(await countAgents()).toBe(0);
    });

    it('types, null for non-nullable members, unknown members and the catalogue voice', async () => {
      expectInvalid(await post(agentBody({ enableRecording: 'yes' })), 'enableRecording');
      expectInvalid(await post(agentBody({ name: null })), 'name');
      expectInvalid(await post(agentBody({ studioConfig: null })), 'studioConfig');
      expectInvalid(await post(agentBody({ studioConfig: [] })), 'studioConfig');
      expectInvalid(await post(agentBody({ nickname: 'x' })), 'nickname');
      expectInvalid(await post(agentBody({ studioConfig: { ...studio(), mood: 'happy' } })), 'studioConfig.mood');
      expectInvalid(await post(agentBody({ voice: 'robot-9000' })), 'voice');
      const ok = await post(agentBody({ greeting: null, preCallVariables: null, abilities: null, flowGraph: null, extractionConfig: null, backgroundAudioId: null }));
      expect(ok.status).toBe(201);
      expect(await countAgents()).toBe(1);
    });
  });

  describe('call behaviour rules', () => {
    it('400 invalid_transfer_number for a number that is not E.164, also in abilities', async () => {
      expectError(await post(agentBody({ transferNumber: '020 7946 0000' })), 400, 'invalid_transfer_number');
      expectError(await post(agentBody({ transferNumber: '+1234' })), 400, 'invalid_transfer_number');
      expectError(await post(agentBody({ abilities: { transfer: { number: '12345678' } } })), 400, 'invalid_transfer_number');
      expectError(await post(agentBody({ studioConfig: { ...studio(), abilities: { transfer: { number: 'call me' } } } })), 400, 'invalid_transfer_number');
      expect(await countAgents()).toBe(0);
    });

    it('400 transfer_number_required when transfer is enabled without a number (after merging on PATCH)', async () => {
      expectError(await post(agentBody({ transferEnabled: true })), 400, 'transfer_number_required');
      expectError(await post(agentBody({ transferEnabled: true, transferNumber: null })), 400, 'transfer_number_required');
      const agent = await createActiveAgent(t, ws.key);
      expectError(await patch(agent.id, { transferEnabled: true }), 400, 'transfer_number_required');
      expect((await patch(agent.id, { transferNumber: '+14155550100' })).status).toBe(200);
      expect((await patch(agent.id, { transferEnabled: true })).status).toBe(200);
      expectError(await patch(agent.id, { transferNumber: null }), 400, 'transfer_number_required');
      expect((await get(agent.id)).body).toMatchObject({ transferEnabled: true, transferNumber: '+14155550100' });
    });

    it('404 background_audio_not_found for an id outside the catalogue', async () => {
      expectError(await post(agentBody({ backgroundAudioId: 'jungle' })), 404, 'background_audio_not_found');
      const agent = await createActiveAgent(t, ws.key, { backgroundAudioId: 'office' });
      expectError(await patch(agent.id, { backgroundAudioId: 'jungle' }), 404, 'background_audio_not_found');
      expect((await get(agent.id)).body.backgroundAudioId).toBe('office');
      expect((await patch(agent.id, { backgroundAudioId: null })).body.backgroundAudioId).toBeNull();
    });
  });

  describe('PATCH /agents/{id}', () => {
    it('updates only what is sent', async () => {
      const agent = await createActiveAgent(t, ws.key, { greeting: 'Hi' });
      const res = await patch(agent.id, { name: 'Renamed', maxCallDurationSecs: 120, greeting: null });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: agent.id, name: 'Renamed', maxCallDurationSecs: 120, greeting: null, voice: 'aria', status: 'ACTIVE' });
    });

    it('400 no_fields_to_update for {}; a body of unknown members is invalid_body', async () => {
      const agent = await createActiveAgent(t, ws.key);
      expectError(await patch(agent.id, {}), 400, 'no_fields_to_update');
      expectInvalid(await patch(agent.id, { colour: 'blue' }), 'colour');
    });

    it('a PATCH that fails changes nothing (read back)', async () => {
      const agent = await createActiveAgent(t, ws.key, { name: 'Keep', greeting: 'Original' });
      await createActiveAgent(t, ws.key, { name: 'Taken' });
      const before = (await get(agent.id)).body;
      const failures: Array<[unknown, number, string]> = [
        [{ name: 'Changed', maxCallDurationSecs: 5 }, 400, 'invalid_body'],
        [{ greeting: 'New', studioConfig: { ...studio(), faqs: [{ question: 'q' }] } }, 400, 'invalid_body'],
        [{ greeting: 'New', flowGraph: { nodes: [], edges: [{ id: 'e', source: 'a', target: 'b' }] } }, 400, 'invalid_body'],
        [{ greeting: 'New', transferNumber: 'nope' }, 400, 'invalid_transfer_number'],
        [{ greeting: 'New', transferEnabled: true }, 400, 'transfer_number_required'],
        [{ greeting: 'New', backgroundAudioId: 'jungle' }, 404, 'background_audio_not_found'],
        [{ greeting: 'New', abilities: { functionIds: ['00000000-0000-4000-8000-000000000000'] } }, 400, 'invalid_body'],
        [{ greeting: 'New', name: 'TAKEN' }, 409, 'name_taken'],
      ];
      for (const [body, status, code] of failures) expectError(await patch(agent.id, body), status, code);
      expect((await get(agent.id)).body).toEqual(before);
    });

    it('404 not_found for an unknown, malformed or foreign id', async () => {
      const other = await t.seed();
      const foreign = await createActiveAgent(t, other.key);
      expectError(await patch('00000000-0000-4000-8000-000000000000', { name: 'x' }), 404, 'not_found');
      expectError(await patch('not-a-uuid', { name: 'x' }), 404, 'not_found');
      expectError(await patch(foreign.id, { name: 'x' }), 404, 'not_found');
      expect((await get(foreign.id, other.key)).body.name).toBe(foreign.name);
    });
  });

  describe('names', () => {
    it('409 name_taken for a name used in the workspace, in any case; other workspaces are separate', async () => {
      await createActiveAgent(t, ws.key, { name: 'Maya' });
      expectError(await post(agentBody({ name: 'maya' })), 409, 'name_taken');
      const other = await t.seed();
      expect((await post(agentBody({ name: 'Maya' }), other.key)).status).toBe(201);
      const second = await createActiveAgent(t, ws.key, { name: 'Ravi' });
      expectError(await patch(second.id, { name: 'MAYA' }), 409, 'name_taken');
      expect((await patch(second.id, { name: 'ravi' })).status).toBe(200);
      expect(await countAgents()).toBe(3);
      expect(Number((await t.dataSource.query(`SELECT count(*) AS n FROM outbox`))[0].n)).toBe(3);
    });

    it('an archived agent keeps its name', async () => {
      const agent = await createActiveAgent(t, ws.key, { name: 'Old' });
      await t.http.delete(`/agents/${agent.id}`).set(bearer(ws.key)).expect(200);
      expectError(await post(agentBody({ name: 'Old' })), 409, 'name_taken');
    });
  });

  describe('quota and duplicate', () => {
    it('duplicates with a free name, going through provisioning again', async () => {
      const agent = await createActiveAgent(t, ws.key, { name: 'Maya', greeting: 'Hi {{x}}', studioConfig: studio() });
      const first = await t.http.post(`/agents/${agent.id}/duplicate`).set(bearer(ws.key));
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ name: 'Maya (copy)', status: 'PROVISIONING', greeting: 'Hi {{x}}', studioConfig: studio() });
      expect(first.body.id).not.toBe(agent.id);
      const second = await t.http.post(`/agents/${agent.id}/duplicate`).set(bearer(ws.key));
      expect(second.body.name).toBe('Maya (copy 2)');
      const long = await createActiveAgent(t, ws.key, { name: 'L'.repeat(100) });
      const copy = await t.http.post(`/agents/${long.id}/duplicate`).set(bearer(ws.key));
      expect(copy.body.name).toBe('L'.repeat(93) + ' (copy)');
      expectError(await t.http.post(`/agents/00000000-0000-4000-8000-000000000000/duplicate`).set(bearer(ws.key)), 404, 'not_found');
    });

    it('409 agent_limit_reached at the workspace quota, on create and on duplicate; archived agents do not count', async () => {
      await t.get(WorkspaceAdministration).update(ws.workspaceId, { agentQuota: 2 });
      const a = await createActiveAgent(t, ws.key);
      await createActiveAgent(t, ws.key);
      expectError(await post(agentBody()), 409, 'agent_limit_reached');
      expectError(await t.http.post(`/agents/${a.id}/duplicate`).set(bearer(ws.key)), 409, 'agent_limit_reached');
      expect(await countAgents()).toBe(2);
      await t.http.delete(`/agents/${a.id}`).set(bearer(ws.key)).expect(200);
      expect((await t.http.post(`/agents/${a.id}/duplicate`).set(bearer(ws.key))).status).toBe(201);
      expectError(await post(agentBody()), 409, 'agent_limit_reached');
    });

    it('concurrent creates never exceed the quota', async () => {
      await t.get(WorkspaceAdministration).update(ws.workspaceId, { agentQuota: 3 });
      const results = await Promise.all(Array.from({ length: 6 }, () => post(agentBody())));
      expect(results.filter((r) => r.status === 201)).toHaveLength(3);
      expect(results.filter((r) => r.status === 409 && r.body.error === 'agent_limit_reached')).toHaveLength(3);
      expect(await countAgents()).toBe(3);
    });
  });

  describe('DELETE /agents/{id}', () => {
    it('archives (200 with the agent); an archived agent is read-only (400 agent_archived) and archiving again is harmless', async () => {
      const agent = await createActiveAgent(t, ws.key);
      const res = await t.http.delete(`/agents/${agent.id}`).set(bearer(ws.key));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: agent.id, status: 'archived' });
      expect(typeof res.body.archivedAt).toBe('string');
      expect((await t.http.delete(`/agents/${agent.id}`).set(bearer(ws.key))).body.archivedAt).toBe(res.body.archivedAt);
      expectError(await patch(agent.id, { name: 'x' }), 400, 'agent_archived');
      expect((await get(agent.id)).body.status).toBe('archived');
    });

    it('?permanent=true deletes (204), or 409 in_use while something references the agent', async () => {
      const used = await createActiveAgent(t, ws.key);
      const free = await createActiveAgent(t, ws.key);
      const seen: Array<[string, string]> = [];
      t.get(AgentReferenceRegistry).register(async (workspaceId, agentId) => {
        seen.push([workspaceId, agentId]);
        return agentId === used.id;
      });
      expectError(await t.http.delete(`/agents/${used.id}?permanent=true`).set(bearer(ws.key)), 409, 'in_use');
      expect((await get(used.id)).body.status).toBe('ACTIVE');
      expect(seen).toEqual([[ws.workspaceId, used.id]]);

      const res = await t.http.delete(`/agents/${free.id}?permanent=true`).set(bearer(ws.key));
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expectError(await get(free.id), 404, 'not_found');
      expectError(await t.http.delete(`/agents/${free.id}?permanent=true`).set(bearer(ws.key)), 404, 'not_found');
      expectError(await t.http.delete(`/agents/${used.id}?permanent=yes`).set(bearer(ws.key)), 400, 'invalid_query');
    });
  });

  describe('compiled prompt', () => {
    it('403 prompt_access_forbidden for API keys; the service itself can compile it', async () => {
      const agent = await createActiveAgent(t, ws.key, { prompt: 'Sell {{product}}.', greeting: 'Hello' });
      const res = await t.http.get(`/agents/${agent.id}/compiled-prompt`).set(bearer(ws.key));
      expectError(res, 403, 'prompt_access_forbidden');
      expect(JSON.stringify(res.body)).not.toContain('Sell');
      const compiled = await t.get(CompileAgentPrompt).execute(ws.workspaceId, agent.id);
      expect(compiled).toContain('## Platform rules');
      expect(compiled).toContain('Sell {{product}}.');
      expect(compiled).toContain('First sentence of the call: "Hello"');
    });
  });

  describe('abilities.functionIds', () => {
    it('must name custom functions of the workspace (400 invalid_body with the item path)', async () => {
      const fn = await t.http
        .post('/functions')
        .set(bearer(ws.key))
        .send({ name: 'lookup', description: 'Look up', parameters: { type: 'object', properties: {} }, method: 'GET', url: 'https://example.com/x' });
      expect(fn.status).toBe(201);
      const other = await t.seed();
      const foreign = await t.http
        .post('/functions')
        .set(bearer(other.key))
        .send({ name: 'lookup', description: 'Look up', parameters: { type: 'object' }, method: 'GET', url: 'https://example.com/x' });
      const unknown = '00000000-0000-4000-8000-000000000000';

      expectInvalid(await post(agentBody({ abilities: { functionIds: [fn.body.id, unknown] } })), 'abilities.functionIds.1');
      expectInvalid(await post(agentBody({ abilities: { functionIds: [foreign.body.id] } })), 'abilities.functionIds.0');
      expectInvalid(await post(agentBody({ abilities: { functionIds: ['not-a-uuid'] } })), 'abilities.functionIds.0');
      expectInvalid(await post(agentBody({ studioConfig: { ...studio(), abilities: { functionIds: [fn.body.id, fn.body.id, unknown] } } })), 'studioConfig.abilities.functionIds.2');
      expect(await countAgents()).toBe(0);

      const ok = await post(agentBody({ abilities: { functionIds: [fn.body.id] }, studioConfig: { ...studio(), abilities: { functionIds: [fn.body.id] } } }));
      expect(ok.status).toBe(201);
      expect(ok.body.abilities).toEqual({ functionIds: [fn.body.id] });
    });
  });

  describe('tenancy and scopes', () => {
    it("another workspace's agent is 404 not_found everywhere and never listed", async () => {
      const other = await t.seed();
      const foreign = await createActiveAgent(t, other.key);
      await createActiveAgent(t, ws.key);
      expectError(await get(foreign.id), 404, 'not_found');
      expectError(await t.http.get(`/v1/agents/${foreign.id}`).set(bearer(ws.key)), 404, 'not_found');
      expectError(await t.http.delete(`/agents/${foreign.id}`).set(bearer(ws.key)), 404, 'not_found');
      expectError(await t.http.delete(`/agents/${foreign.id}?permanent=true`).set(bearer(ws.key)), 404, 'not_found');
      expectError(await t.http.post(`/agents/${foreign.id}/duplicate`).set(bearer(ws.key)), 404, 'not_found');
      const list = await t.http.get('/agents').set(bearer(ws.key));
      expect(list.body.map((a: { id: string }) => a.id)).not.toContain(foreign.id);
      expect((await get(foreign.id, other.key)).body.status).toBe('ACTIVE');
    });

    it('agents.view reads, agents.edit writes (403 forbidden with requiredPermission)', async () => {
      const agent = await createActiveAgent(t, ws.key);
      const viewer = await t.addKey(ws.workspaceId, { scopes: ['agents.view'] });
      expect((await get(agent.id, viewer.key)).status).toBe(200);
      expect((await t.http.get('/voices').set(bearer(viewer.key))).status).toBe(200);
      for (const res of [await post(agentBody(), viewer.key), await patch(agent.id, { name: 'x' }, viewer.key)]) {
        expectError(res, 403, 'forbidden');
        expect(res.body.requiredPermission).toBe('agents.edit');
      }
      const none = await t.addKey(ws.workspaceId, { scopes: ['campaigns.view'] });
      const res = await get(agent.id, none.key);
      expectError(res, 403, 'forbidden');
      expect(res.body.requiredPermission).toBe('agents.view');
      // A scope-less key reaches /v1/agents (checked against the acting member) and nothing else.
      const scopeless = await t.addKey(ws.workspaceId, { scopes: [] });
      expect((await t.http.get('/v1/agents').set(bearer(scopeless.key))).status).toBe(200);
      expectError(await t.http.get('/agents').set(bearer(scopeless.key)), 403, 'api_key_not_scoped');
    });
  });

  describe('AgentDirectory (what campaigns see)', () => {
    it('summarises an agent of the workspace; null for unknown, malformed or foreign ids', async () => {
      const agent = await createActiveAgent(t, ws.key, {
        agentType: 'INBOUND',
        maxCallDurationSecs: 900,
        extractionConfig: { prompt: 'p', keys: [{ name: 'budget', type: 'number', description: 'Budget' }] },
      });
      const directory = t.get(AgentDirectory);
      expect(await directory.find(ws.workspaceId, agent.id)).toEqual({
        id: agent.id,
        workspaceId: ws.workspaceId,
        name: agent.name,
        status: 'ACTIVE',
        agentType: 'INBOUND',
        maxCallDurationSecs: 900,
        extractionKeys: [{ name: 'budget', type: 'number', description: 'Budget' }],
      });
      const other = await t.seed();
      expect(await directory.find(other.workspaceId, agent.id)).toBeNull();
      expect(await directory.find(ws.workspaceId, '00000000-0000-4000-8000-000000000000')).toBeNull();
      expect(await directory.find(ws.workspaceId, 'nope')).toBeNull();
    });
  });

  it('documents every body member in OpenAPI', async () => {
    const doc = (await t.http.get('/docs-json')).body;
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.CreateAgentDto.properties)).toEqual(expect.arrayContaining(['name', 'prompt', 'voice', 'studioConfig', 'abilities', 'flowGraph', 'transferNumber']));
    expect(schemas.CreateAgentDto.required).toEqual(expect.arrayContaining(['name', 'voice']));
    expect(schemas.UpdateAgentDto.required ?? []).toEqual([]);
    expect(Object.keys(schemas.StudioConfigDto.properties)).toHaveLength(23);
    expect(Object.keys(schemas.AbilitiesDto.properties)).toEqual(['transfer', 'booking', 'callback', 'whatsapp', 'knowledgeDocIds', 'functionIds']);
    expect(doc.paths['/agents/{id}/duplicate'].post).toBeDefined();
  });
});
