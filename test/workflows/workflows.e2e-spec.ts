import { createTemplate } from '../messaging/messaging-helpers';
import { createActiveAgent } from '../support/agent-fixtures';
import { expectError } from '../campaigns/campaign-helpers';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { countRows, createWorkflow, exampleDefinition, trivialDefinition } from './workflow-helpers';

/*
 * Issue 13 items 1-2: workflow definitions over HTTP — validation (422 workflow_invalid with
 * details), revisions (409 concurrent_modification with currentRevision), DRAFT → ACTIVE →
 * archived, delete, the `workflows` feature (404 workflow_not_found when off) and the scopes.
 */
describe('workflows', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed({ features: ['workflows', 'whatsapp'] });
  });

  const http = (key = ws.key) => ({
    get: (path: string) => t.http.get(path).set(bearer(key)),
    post: (path: string, body: unknown = {}) => t.http.post(path).set(bearer(key)).send(body as object),
    put: (path: string, body: unknown) => t.http.put(path).set(bearer(key)).send(body as object),
    del: (path: string) => t.http.delete(path).set(bearer(key)),
  });

  it('create, list (GET /v1/workflows and GET /workflows), read: DRAFT at revision 1 with the definition', async () => {
    const agent = await createActiveAgent(t, ws.key);
    const template = await createTemplate(t, ws.key);
    const definition = exampleDefinition(agent.id, String(template.id));
    const created = await http().post('/workflows', { name: 'Call then WhatsApp', definition });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Call then WhatsApp', status: 'DRAFT', revision: 1, definition });
    const { id, updatedAt } = created.body;

    for (const path of ['/v1/workflows', '/workflows']) {
      const list = await http().get(path);
      expect(list.status).toBe(200);
      expect(list.body).toEqual({ workflows: [{ id, name: 'Call then WhatsApp', status: 'DRAFT', revision: 1, updatedAt }] });
    }
    const read = await http().get(`/workflows/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('422 workflow_invalid with details [{path, message}]; nothing written', async () => {
    const bad = { ...trivialDefinition(), edges: [{ from: 'start', port: 'answered', to: 'done' }] };
    const res = await http().post('/workflows', { name: 'x', definition: bad });
    expectError(res, 422, 'workflow_invalid');
    expect(res.body.details).toEqual([
      { path: 'edges[0].port', message: 'a start node has ports next; not answered' },
      { path: 'nodes[0].ports.next', message: 'port next is not wired' },
    ]);
    const schema = await http().post('/workflows', { name: 'x', definition: { nodes: [{ id: 'start', kind: 'start' }], edges: [] } });
    expectError(schema, 422, 'workflow_invalid');
    expect(schema.body.details).toEqual([{ path: 'nodes[0].config', message: 'is required' }]);
    expect(await countRows(t, 'workflows')).toBe(0);
    expect(await countRows(t, 'workflow_revisions')).toBe(0);
  });

  it('422 workflow_invalid for an agent or template of another workspace (or none)', async () => {
    const other = await t.seed({ features: ['workflows', 'whatsapp'] });
    const agent = await createActiveAgent(t, other.key);
    const template = await createTemplate(t, other.key);
    const res = await http().post('/workflows', { name: 'x', definition: exampleDefinition(agent.id, String(template.id)) });
    expectError(res, 422, 'workflow_invalid');
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['nodes[1].config.agentId', 'nodes[3].config.templateId', 'nodes[5].config.agentId']);
    expect(await countRows(t, 'workflows')).toBe(0);
  });

  it('400 invalid_body for a missing name or definition (the edge validator)', async () => {
    expectError(await http().post('/workflows', { definition: trivialDefinition() }), 400, 'invalid_body');
    expectError(await http().post('/workflows', { name: 'x' }), 400, 'invalid_body');
    expectError(await http().put(`/workflows/${(await createWorkflow(t, ws.key)).id}`, { name: 'no revision' }), 400, 'invalid_body');
  });

  it('every write names its revision: a stale one → 409 concurrent_modification with currentRevision, nothing changed', async () => {
    const w = await createWorkflow(t, ws.key);
    const renamed = await http().put(`/workflows/${w.id}`, { revision: 1, name: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', revision: 2, status: 'DRAFT' });

    for (const stale of [
      () => http().put(`/workflows/${w.id}`, { revision: 1, name: 'Lost update' }),
      () => http().post(`/workflows/${w.id}/activate`, { revision: 1 }),
      () => http().post(`/workflows/${w.id}/archive`, { revision: 1 }),
      () => http().del(`/workflows/${w.id}?revision=1`),
    ]) {
      const res = await stale();
      expectError(res, 409, 'concurrent_modification');
      expect(res.body.currentRevision).toBe(2);
    }
    expect((await http().get(`/workflows/${w.id}`)).body).toMatchObject({ name: 'Renamed', revision: 2, status: 'DRAFT' });
    expect(await countRows(t, 'workflow_revisions')).toBe(2);
  });

  it('two writers at the same revision: one wins, the other gets 409 with the winner revision', async () => {
    const w = await createWorkflow(t, ws.key);
    const answers = await Promise.all(['A', 'B', 'C'].map((name) => http().put(`/workflows/${w.id}`, { revision: 1, name })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    for (const loser of answers.filter((a) => a.status === 409)) expect(loser.body).toMatchObject({ error: 'concurrent_modification', currentRevision: 2 });
    const winner = answers.find((a) => a.status === 200)!.body.name;
    expect((await http().get(`/workflows/${w.id}`)).body).toMatchObject({ name: winner, revision: 2 });
  });

  it('DRAFT → ACTIVE → archived; each revision keeps its frozen definition; an archived workflow refuses writes', async () => {
    const w = await createWorkflow(t, ws.key);
    const active = await http().post(`/workflows/${w.id}/activate`, { revision: 1 });
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({ status: 'ACTIVE', revision: 2 });
    // Activating an ACTIVE workflow changes nothing.
    expect((await http().post(`/workflows/${w.id}/activate`, { revision: 2 })).body).toMatchObject({ status: 'ACTIVE', revision: 2 });

    const edited = { ...trivialDefinition(), nodes: [trivialDefinition().nodes[0], { id: 'done', kind: 'end', label: 'finished', config: {} }] };
    const put = await http().put(`/workflows/${w.id}`, { revision: 2, definition: edited });
    expect(put.body).toMatchObject({ status: 'ACTIVE', revision: 3, definition: edited });
    const revisions = await t.dataSource.query(`SELECT revision, definition FROM workflow_revisions WHERE workflow_id = $1 ORDER BY revision`, [w.id]);
    expect(revisions.map((r: { revision: number }) => r.revision)).toEqual([1, 2, 3]);
    expect(revisions[1].definition).toEqual(trivialDefinition());
    expect(revisions[2].definition).toEqual(edited);

    const archived = await http().post(`/workflows/${w.id}/archive`, { revision: 3 });
    expect(archived.body).toMatchObject({ status: 'archived', revision: 4 });
    expectError(await http().put(`/workflows/${w.id}`, { revision: 4, name: 'again' }), 400, 'invalid_request');
    expectError(await http().post(`/workflows/${w.id}/activate`, { revision: 4 }), 400, 'invalid_request');
    expect((await http().get(`/workflows/${w.id}`)).body).toMatchObject({ status: 'archived', revision: 4 });
  });

  it('activation checks the references again: an agent deleted since → 422 workflow_invalid, still DRAFT', async () => {
    const agent = await createActiveAgent(t, ws.key);
    const template = await createTemplate(t, ws.key);
    const w = await createWorkflow(t, ws.key, exampleDefinition(agent.id, String(template.id)));
    expect((await http().del(`/whatsapp/templates/${template.id}`)).status).toBe(204);
    const res = await http().post(`/workflows/${w.id}/activate`, { revision: 1 });
    expectError(res, 422, 'workflow_invalid');
    expect(res.body.details).toEqual([{ path: 'nodes[3].config.templateId', message: `no whatsapp template ${template.id} in this workspace` }]);
    expect((await http().get(`/workflows/${w.id}`)).body).toMatchObject({ status: 'DRAFT', revision: 1 });
  });

  it('an agent a live workflow calls cannot be deleted for good (409 in_use) until the workflow is archived', async () => {
    const agent = await createActiveAgent(t, ws.key);
    const template = await createTemplate(t, ws.key);
    const w = await createWorkflow(t, ws.key, exampleDefinition(agent.id, String(template.id)));
    expectError(await http().del(`/agents/${agent.id}?permanent=true`), 409, 'in_use');
    expect((await http().get(`/agents/${agent.id}`)).status).toBe(200);
    expect((await http().post(`/workflows/${w.id}/archive`, { revision: 1 })).status).toBe(200);
    expect((await http().del(`/agents/${agent.id}?permanent=true`)).status).toBe(204);
    expect((await http().get(`/agents/${agent.id}`)).status).toBe(404);
  });

  it('DELETE at the current revision: 204, then 404 workflow_not_found; its revisions stay', async () => {
    const w = await createWorkflow(t, ws.key);
    expect((await http().del(`/workflows/${w.id}?revision=1`)).status).toBe(204);
    expectError(await http().get(`/workflows/${w.id}`), 404, 'workflow_not_found');
    expectError(await http().del(`/workflows/${w.id}?revision=1`), 404, 'workflow_not_found');
    expect((await http().get('/v1/workflows')).body).toEqual({ workflows: [] });
    expect(await countRows(t, 'workflow_revisions')).toBe(1);
    const kept = await createWorkflow(t, ws.key);
    expectError(await http().del(`/workflows/${kept.id}`), 400, 'invalid_query');
    expect((await http().get(`/workflows/${kept.id}`)).status).toBe(200);
  });

  it('404 workflow_not_found: unknown, malformed, another workspace, or the feature off', async () => {
    const w = await createWorkflow(t, ws.key);
    expectError(await http().get('/workflows/7a0e6f43-4f43-4a8e-9a55-3c1f0f1b0a01'), 404, 'workflow_not_found');
    expectError(await http().get('/workflows/not-a-uuid'), 404, 'workflow_not_found');
    const other = await t.seed({ features: ['workflows'] });
    expectError(await http(other.key).get(`/workflows/${w.id}`), 404, 'workflow_not_found');
    expectError(await http(other.key).put(`/workflows/${w.id}`, { revision: 1, name: 'theirs' }), 404, 'workflow_not_found');
    const off = await t.seed();
    expectError(await http(off.key).get('/v1/workflows'), 404, 'workflow_not_found');
    expectError(await http(off.key).post('/workflows', { name: 'x', definition: trivialDefinition() }), 404, 'workflow_not_found');
    expect((await http().get(`/workflows/${w.id}`)).body).toMatchObject({ name: 'Journey', revision: 1 });
  });

  it('scopes: workflows.view reads, workflows.edit writes', async () => {
    const w = await createWorkflow(t, ws.key);
    const viewer = await t.addKey(ws.workspaceId, { scopes: ['workflows.view'] });
    expect((await http(viewer.key).get(`/workflows/${w.id}`)).status).toBe(200);
    const denied = await http(viewer.key).post('/workflows', { name: 'x', definition: trivialDefinition() });
    expectError(denied, 403, 'forbidden');
    expect(denied.body.requiredPermission).toBe('workflows.edit');
    const editor = await t.addKey(ws.workspaceId, { scopes: ['campaigns.view'] });
    expectError(await http(editor.key).get('/workflows'), 403, 'forbidden');
    expect(await countRows(t, 'workflows')).toBe(1);
  });
});
