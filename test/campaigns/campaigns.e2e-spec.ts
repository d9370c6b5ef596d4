import { CrmDirectory, WorkflowDirectory } from '@outreach/campaigns';
import { createActiveAgent } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { addContacts, attachNumber, createCampaign, credit, expectError, readCampaign, uniqueName } from './campaign-helpers';

class FakeWorkflows extends WorkflowDirectory {
  statuses = new Map<string, string>();
  async status(_ws: string, id: string) {
    return this.statuses.get(id) ?? null;
  }
}
class FakeCrm extends CrmDirectory {
  connections = new Map<string, string>();
  importing = new Set<string>();
  async connectionStatus(_ws: string, id: string) {
    return this.connections.get(id) ?? null;
  }
  async hasImportInProgress(_ws: string, campaignId: string) {
    return this.importing.has(campaignId);
  }
}

const UNKNOWN = '3f1c2b8e-58a1-4b3c-9b2e-7d51c1d0e9a4';
const WORKFLOW_ID = '7a0e6f43-4f43-4a8e-9a55-3c1f0f1b0a01';
const PLATFORM_TYPE = '00000000-0000-4000-8000-00000000c701';

/** Every field of the spec's Campaign table. */
const SPEC_FIELDS = [
  'id', 'name', 'agentId', 'agentName', 'status', 'channel', 'source', 'reservedConcurrency', 'variableMap',
  'startedAt', 'endedAt', 'pauseReason', 'createdAt', 'updatedAt', 'campaignTypeId', 'campaignTypeName', 'customExtractionKeys',
  'effectiveExtractionKeys', 'notificationUserIds', 'defaultCrmConnectionId', 'defaultCrmSegmentId', 'description',
  'workflowId', 'countryCode', 'phoneColumn', 'uploadId', 'timezone', 'goal', 'briefFileName', 'briefText',
  'scheduledStartAt', 'scheduledEndAt', 'briefUploadedAt', 'dailyWindowStart', 'dailyWindowEnd',
  'whatsappOutreachTemplateId', 'whatsappTemplateByMetric', 'messageDeclinedLeads', 'whatsappEnabled',
  'whatsappPaymentLinkEnabled', 'recoveryLinkEnabled', 'removeInvalidRows', 'transliterateCalleeNames',
  'followupEnabled', 'churnEnabled', 'incompleteRetryEnabled', 'skipRetryOnFirstVoicemail', 'messageRetryEnabled',
  'messageRetryTieredEnabled', 'autoReseedEnabled', 'dailyMessageCap', 'retryCount', 'cooldownMinutes',
  'retryConcurrencyPercent', 'followupMaxAttempts', 'churnMaxAttempts', 'churnIntervalHours',
  'incompleteRetryMaxAttempts', 'incompleteRetryIntervalMinutes', 'incompleteCallSeconds', 'referralMaxDepth',
  'messageRetryMaxAttempts', 'messageRetryIntervalSeconds', 'messageRetryWindowSeconds',
  'messageRetryTransientMaxAttempts', 'dailyDialCap', 'circuitBreakerWindow', 'circuitBreakerFailurePercent', 'contactCount', 'receivedCalls', 'retryDelaysMinutes',
  'churnDelaysHours', 'incompleteRetryDelaysMinutes', 'messageRetryDelaysSeconds', 'dialDays',
  'whatsappAgentTemplateIds', 'altPhoneColumns', 'whatsappAutomations', 'outreachRules', 'evaluationMetrics',
];

const key = (name: string) => ({ name, description: `about ${name}` });
const metric = (k: string) => ({ key: k, label: k, allowedValues: ['yes', 'no'], prompt: `Is it ${k}?` });
const times = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));

/**
 * decisions.md 13.3: the 36 bounds of the update body, in order. Each row: bound number(s), field, values
 * that break the bound (→ 400 invalid_body with the field's path), and a value on the edge (accepted).
 */
const BOUNDS: Array<[string, string, unknown[], unknown]> = [
  ['1', 'description', ['x'.repeat(281), 5], 'x'.repeat(280)],
  ['2', 'agentId', ['', 7], null], // an existing agent id is tested separately
  ['3', 'dailyMessageCap', [0, 100001, 1.5, '10'], 100000],
  ['4', 'notificationUserIds', [times(21, (i) => `u${i}`), 'u1'], null], // 20 active members are tested separately
  ['5', 'reservedConcurrency', [0, 11, null], 10],
  ['6', 'countryCode', ['91', '+1234', '+', '+999'], '+91'],
  ['6', 'altPhoneColumns', [times(6, (i) => `alt${i}`), [''], 'alt'], times(5, (i) => `alt${i}`)],
  ['7', 'dailyWindowStart', ['9:00', '24:00', '12:60', 'noon'], '23:59'],
  ['7', 'dailyWindowEnd', ['9:00', '24:00', null], '00:00'],
  ['8', 'retryCount', [-1, 11], 0],
  ['9', 'cooldownMinutes', [4, 43201], 5],
  ['10', 'retryDelaysMinutes', [times(11, () => 60), 60], times(10, () => 60)],
  ['11', 'retryDelaysMinutes', [[0], [43201], [1.5]], [1, 43200]],
  ['12', 'retryConcurrencyPercent', [-1, 101], 100],
  ['13', 'customExtractionKeys', [times(41, (i) => key(`k${i}`)), [{ name: '1bad', description: 'x' }], [{ name: 'ok' }]], times(40, (i) => key(`k${i}`))],
  ['14', 'customExtractionKeysMode', ['MERGE', ''], 'REPLACE'],
  ['15', 'followupMaxAttempts', [0, 11], 10],
  ['15', 'churnMaxAttempts', [0, 11], 1],
  ['16', 'churnIntervalHours', [0, 2161], 2160],
  ['17', 'churnDelaysHours', [times(11, () => 1)], times(10, () => 1)],
  ['18', 'churnDelaysHours', [[0], [2161]], [2160]],
  ['19', 'goal', ['x'.repeat(501)], 'x'.repeat(500)],
  ['20', 'briefText', ['x'.repeat(200001)], 'x'.repeat(200000)],
  ['21', 'briefFileName', ['x'.repeat(256)], 'x'.repeat(255)],
  ['22', 'incompleteRetryMaxAttempts', [0, 6], 5],
  ['23', 'incompleteRetryIntervalMinutes', [0, 1441], 1440],
  ['24', 'incompleteRetryDelaysMinutes', [times(6, () => 1)], times(5, () => 1)],
  ['25', 'incompleteRetryDelaysMinutes', [[0], [1441]], [1440]],
  ['26', 'incompleteCallSeconds', [4, 301], 300],
  ['27', 'referralMaxDepth', [-1, 4], 3],
  ['28', 'messageRetryMaxAttempts', [0, 11], 10],
  ['29', 'messageRetryIntervalSeconds', [0, 604801], 604800],
  ['30', 'messageRetryDelaysSeconds', [times(11, () => 1)], times(10, () => 1)],
  ['31', 'messageRetryDelaysSeconds', [[0], [604801]], [604800]],
  ['32', 'messageRetryWindowSeconds', [0, 2592001], 2592000],
  ['33', 'messageRetryTransientMaxAttempts', [0, 101], 100],
  ['34', 'dailyDialCap', [0, 100001], 100000],
  ['35', 'dialDays', [[], times(8, (i) => i % 7), [7], [-1], [1, 1]], [0, 6]],
  ['36', 'evaluationMetrics', [times(13, (i) => metric(`m${i}`)), [{ key: 'x' }]], times(12, (i) => metric(`m${i}`))],
];

describe('campaigns: create, read, PATCH (36 bounds), custom keys, delete', () => {
  let t: TestApp;
  let ws: Seeded;
  const workflows = new FakeWorkflows();
  const crm = new FakeCrm();

  beforeAll(async () => {
    t = await TestApp.create({
      configure: (b) => b.overrideProvider(WorkflowDirectory).useValue(workflows).overrideProvider(CrmDirectory).useValue(crm),
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    workflows.statuses.clear();
    crm.connections.clear();
    crm.importing.clear();
    await t.reset();
    ws = await t.seed();
  });

  const create = (body: Record<string, unknown>, k = ws.key) =>
    t.http.post('/v1/campaigns').set(bearer(k)).send({ name: uniqueName(), channel: 'VOICE', source: 'CSV', ...body });
  const patch = (id: string, body: unknown, k = ws.key) => t.http.patch(`/v1/campaigns/${id}`).set(bearer(k)).send(body as object);
  const setStatus = (id: string, status: string) => t.dataSource.query(`UPDATE campaigns SET status = $2 WHERE id = $1`, [id, status]);
  const countCampaigns = async () => Number((await t.dataSource.query(`SELECT count(*) AS n FROM campaigns`))[0].n);

  describe('POST /v1/campaigns', () => {
    it('creates a DRAFT with every field of the spec’s Campaign shape', async () => {
      const agent = await createActiveAgent(t, ws.key);
      const res = await create({
        name: 'Spring push',
        agentId: agent.id,
        description: 'Call the spring leads',
        campaignTypeId: PLATFORM_TYPE,
        timezone: 'Asia/Kolkata',
        countryCode: '+91',
        customExtractionKeys: [key('pet')],
        evaluationMetrics: [metric('qualified')],
        scheduledEndAt: '2030-01-01T00:00:00Z',
        variableMap: { first_name: 'First Name' },
      });
      expect(res.status).toBe(201);
      for (const field of SPEC_FIELDS) expect(res.body).toHaveProperty(field);
      expect(res.body).toMatchObject({
        name: 'Spring push',
        status: 'DRAFT',
        agentId: agent.id,
        agentName: agent.name,
        channel: 'VOICE',
        source: 'CSV',
        campaignTypeId: PLATFORM_TYPE,
        campaignTypeName: 'Lead qualification',
        timezone: 'Asia/Kolkata',
        countryCode: '+91',
        contactCount: 0,
        receivedCalls: 0,
        reservedConcurrency: 1,
        customExtractionKeysMode: 'APPEND',
        scheduledEndAt: '2030-01-01T00:00:00.000Z',
        variableMap: { first_name: 'First Name' },
        evaluationMetrics: [{ ...metric('qualified'), builtin: false }],
      });
      expect(res.body.effectiveExtractionKeys.map((k: { name: string }) => k.name)).toEqual(['budget', 'timeline', 'decision_maker', 'pet']);
      expect(res.body.customExtractionKeys).toEqual([{ name: 'pet', type: 'string', description: 'about pet' }]);
      expect(await readCampaign(t, ws.key, res.body.id)).toEqual(res.body);
    });

    it('400 invalid_body for a missing name, an unknown channel or source, or an unknown member; INBOUND without the feature → 403', async () => {
      for (const body of [
        { name: undefined },
        { name: '' },
        { name: 'x'.repeat(101) },
        { channel: 'FAX' },
        { source: 'EXCEL' },
        { surprise: true },
        { timezone: 'Mars/Olympus' },
        { scheduledEndAt: 'tomorrow' },
        { variableMap: { a: 1 } },
      ]) {
        expectError(await create(body), 400, 'invalid_body');
      }
      // INBOUND campaigns are the workspace feature `inbound` (decisions.md 36.2; test/campaigns/inbound-campaigns.e2e-spec.ts).
      expectError(await create({ source: 'INBOUND' }), 403, 'feature_not_available');
      expect(await countCampaigns()).toBe(0);
    });

    it('400 agent_not_found for an unknown, malformed or foreign agent; 400 agent_archived', async () => {
      expectError(await create({ agentId: UNKNOWN }), 400, 'agent_not_found');
      expectError(await create({ agentId: 'nope' }), 400, 'agent_not_found');
      const other = await t.seed();
      const foreign = await createActiveAgent(t, other.key);
      expectError(await create({ agentId: foreign.id }), 400, 'agent_not_found');
      const archived = await createActiveAgent(t, ws.key);
      expect((await t.http.delete(`/agents/${archived.id}`).set(bearer(ws.key))).status).toBeLessThan(300);
      expectError(await create({ agentId: archived.id }), 400, 'agent_archived');
      expect(await countCampaigns()).toBe(0);
    });

    it('400 campaign_type_not_found for unknown, archived or another workspace’s types', async () => {
      expectError(await create({ campaignTypeId: UNKNOWN }), 400, 'campaign_type_not_found');
      const other = await t.seed();
      const foreign = await t.http.post('/campaign-types').set(bearer(other.key)).send({ name: 'Theirs' });
      expectError(await create({ campaignTypeId: foreign.body.id }), 400, 'campaign_type_not_found');
      const mine = await t.http.post('/campaign-types').set(bearer(ws.key)).send({ name: 'Mine' });
      await t.http.delete(`/campaign-types/${mine.body.id}`).set(bearer(ws.key)).expect(204);
      expectError(await create({ campaignTypeId: mine.body.id }), 400, 'campaign_type_not_found');
      expect(await countCampaigns()).toBe(0);
    });

    it('CRM_WEBHOOK: 400 default_crm_connection_required, then crm_connection_not_found (missing or not ACTIVE)', async () => {
      expectError(await create({ source: 'CRM_WEBHOOK' }), 400, 'default_crm_connection_required');
      expectError(await create({ source: 'CRM_WEBHOOK', defaultCrmConnectionId: 'crm_1' }), 400, 'crm_connection_not_found');
      crm.connections.set('crm_1', 'DISCONNECTED');
      expectError(await create({ source: 'CRM_WEBHOOK', defaultCrmConnectionId: 'crm_1' }), 400, 'crm_connection_not_found');
      expect(await countCampaigns()).toBe(0);
      crm.connections.set('crm_1', 'ACTIVE');
      expect((await create({ source: 'CRM_WEBHOOK', defaultCrmConnectionId: 'crm_1' })).status).toBe(201);
    });

    it('journeys: 400 journey_campaign_source_unsupported, 404 workflow_not_found, 409 workflow_not_active', async () => {
      expectError(await create({ workflowId: WORKFLOW_ID, source: 'CRM_MANUAL' }), 400, 'journey_campaign_source_unsupported');
      expectError(await create({ workflowId: WORKFLOW_ID }), 404, 'workflow_not_found');
      workflows.statuses.set('not-a-uuid', 'ACTIVE');
      expectError(await create({ workflowId: 'not-a-uuid' }), 404, 'workflow_not_found');
      workflows.statuses.set(WORKFLOW_ID, 'DRAFT');
      expectError(await create({ workflowId: WORKFLOW_ID }), 409, 'workflow_not_active');
      expect(await countCampaigns()).toBe(0);
      workflows.statuses.set(WORKFLOW_ID, 'ACTIVE');
      expect((await create({ workflowId: WORKFLOW_ID, source: 'API' })).status).toBe(201);
    });

    it('409 name_taken (case-insensitive, per workspace)', async () => {
      expect((await create({ name: 'Summer' })).status).toBe(201);
      expectError(await create({ name: 'summer' }), 409, 'name_taken');
      const other = await t.seed();
      expect((await create({ name: 'Summer' }, other.key)).status).toBe(201);
    });

    it('400 reserved_extraction_key, reserved_metric_key, metric_key_collision', async () => {
      const reserved = await create({ customExtractionKeys: [key('transcript')] });
      expectError(reserved, 400, 'reserved_extraction_key');
      expect(reserved.body.detail.reservedNames).toContain('phone');
      expectError(await create({ evaluationMetrics: [metric('sentiment')] }), 400, 'reserved_metric_key');
      expectError(await create({ customExtractionKeys: [key('qualified')], evaluationMetrics: [metric('qualified')] }), 400, 'metric_key_collision');
      expectError(await create({ campaignTypeId: PLATFORM_TYPE, evaluationMetrics: [metric('budget')] }), 400, 'metric_key_collision');
      expect(await countCampaigns()).toBe(0);
    });
  });

  describe('GET', () => {
    it('lists the workspace’s campaigns on /v1/campaigns and /campaigns; 404 campaign_not_found otherwise', async () => {
      const a = await createCampaign(t, ws.key);
      const b = await createCampaign(t, ws.key);
      const other = await t.seed();
      const theirs = await createCampaign(t, other.key);
      for (const path of ['/v1/campaigns', '/campaigns']) {
        const res = await t.http.get(path).set(bearer(ws.key));
        expect(res.status).toBe(200);
        expect(res.body.campaigns.map((c: { id: string }) => c.id).sort()).toEqual([a.id, b.id].sort());
      }
      expectError(await t.http.get(`/v1/campaigns/${theirs.id}`).set(bearer(ws.key)), 404, 'campaign_not_found');
      expectError(await t.http.get(`/v1/campaigns/${UNKNOWN}`).set(bearer(ws.key)), 404, 'campaign_not_found');
      expectError(await t.http.get(`/v1/campaigns/not-a-uuid`).set(bearer(ws.key)), 404, 'campaign_not_found');
    });

    it('a scope-less key may use the /v1 routes but not /campaigns', async () => {
      const c = await createCampaign(t, ws.key);
      const scopeless = await t.addKey(ws.workspaceId, { scopes: [] });
      expect((await t.http.get(`/v1/campaigns/${c.id}`).set(bearer(scopeless.key))).status).toBe(200);
      expectError(await t.http.get('/campaigns').set(bearer(scopeless.key)), 403, 'api_key_not_scoped');
    });
  });

  describe('PATCH /v1/campaigns/{id}', () => {
    it.each(BOUNDS)('bound #%s (%s): violations are 400 invalid_body with the path; the edge is accepted', async (_n, field, bad, good) => {
      const c = await createCampaign(t, ws.key);
      const before = await readCampaign(t, ws.key, c.id);
      for (const value of bad) {
        const res = await patch(c.id, { [field]: value });
        expectError(res, 400, 'invalid_body');
        expect(res.body.issues.some((i: { path: string }) => i.path === field || i.path.startsWith(`${field}.`))).toBe(true);
      }
      expect(await readCampaign(t, ws.key, c.id)).toEqual(before);
      if (good !== null) {
        const res = await patch(c.id, { [field]: good });
        expect(res.status).toBe(200);
        const stored = (await readCampaign(t, ws.key, c.id))[field];
        if (field === 'customExtractionKeys') expect(stored).toHaveLength((good as unknown[]).length);
        else if (field === 'evaluationMetrics') expect(stored.map((m: { key: string }) => m.key)).toEqual((good as Array<{ key: string }>).map((m) => m.key));
        else expect(stored).toEqual(good);
      }
    });

    it('bound #4: notificationUserIds name at most 20 ACTIVE members of the workspace (400 invalid_body naming each other entry)', async () => {
      const c = await createCampaign(t, ws.key);
      const members = [];
      for (let i = 0; i < 20; i++) members.push(await t.members.add({ workspaceId: ws.workspaceId, email: `m${i}@example.com` }));
      const ids = members.map((m) => m.id);
      expect((await patch(c.id, { notificationUserIds: ids })).body.notificationUserIds).toEqual(ids);

      const other = await t.seed();
      const foreign = await t.members.add({ workspaceId: other.workspaceId, email: 'x@example.com' });
      await t.members.setStatus(ids[3], 'SUSPENDED');
      const before = await readCampaign(t, ws.key, c.id);
      const res = await patch(c.id, { notificationUserIds: [ids[0], ids[3], foreign.id, UNKNOWN] });
      expectError(res, 400, 'invalid_body');
      expect(res.body.issues).toEqual([
        { path: 'notificationUserIds.1', message: `"${ids[3]}" is not an active member of the workspace` },
        { path: 'notificationUserIds.2', message: `"${foreign.id}" is not an active member of the workspace` },
        { path: 'notificationUserIds.3', message: `"${UNKNOWN}" is not an active member of the workspace` },
      ]);
      expect(await readCampaign(t, ws.key, c.id)).toEqual(before);
      expectError(await create({ notificationUserIds: [ids[3]] }), 400, 'invalid_body');
    });

    it('bound #2: agentId names an agent of the workspace (404 agent_not_found on PATCH)', async () => {
      const c = await createCampaign(t, ws.key);
      const agent = await createActiveAgent(t, ws.key);
      expect((await patch(c.id, { agentId: agent.id })).body).toMatchObject({ agentId: agent.id, agentName: agent.name });
      expectError(await patch(c.id, { agentId: UNKNOWN }), 404, 'agent_not_found');
      expect((await patch(c.id, { agentId: null })).body.agentId).toBeNull();
    });

    it('400 no_fields_to_update for an empty body; 404 campaign_not_found for unknown or foreign ids', async () => {
      const c = await createCampaign(t, ws.key);
      expectError(await patch(c.id, {}), 400, 'no_fields_to_update');
      const other = await t.seed();
      expectError(await patch(c.id, { name: 'Mine now' }, other.key), 404, 'campaign_not_found');
      expectError(await patch(UNKNOWN, { name: 'x' }), 404, 'campaign_not_found');
      expect((await readCampaign(t, ws.key, c.id)).name).toBe(c.name);
    });

    it('editable in DRAFT, PAUSED and CREDIT_EXHAUSTED; 409 campaign_not_draft otherwise, changing nothing', async () => {
      const c = await createCampaign(t, ws.key);
      for (const status of ['RUNNING', 'COMPLETED', 'CANCELED']) {
        await setStatus(c.id, status);
        const before = await readCampaign(t, ws.key, c.id);
        expectError(await patch(c.id, { name: 'Edited', retryCount: 5 }), 409, 'campaign_not_draft');
        expect(await readCampaign(t, ws.key, c.id)).toEqual(before);
      }
      for (const status of ['PAUSED', 'CREDIT_EXHAUSTED', 'DRAFT']) {
        await setStatus(c.id, status);
        const res = await patch(c.id, { description: status, retryCount: 4 });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ description: status, retryCount: 4, status });
      }
    });

    it('every switch of the campaign can be set and read back', async () => {
      const c = await createCampaign(t, ws.key);
      const switches = [
        'messageDeclinedLeads', 'removeInvalidRows',
        'transliterateCalleeNames', 'followupEnabled', 'churnEnabled', 'incompleteRetryEnabled', 'skipRetryOnFirstVoicemail',
        'messageRetryEnabled', 'messageRetryTieredEnabled', 'allowBurst',
      ]; // autoReseedEnabled: true is refused (decisions.md 35.8; test/engine/sequences.e2e-spec.ts); the messaging switches below (30.20)
      const body = Object.fromEntries(switches.map((name) => [name, true]));
      const res = await patch(c.id, { ...body, whatsappOutreachTemplateId: 'tpl_1', whatsappAgentTemplateIds: [], timezone: 'Europe/Paris' });
      expect(res.status).toBe(200);
      expect(await readCampaign(t, ws.key, c.id)).toMatchObject({ ...body, whatsappOutreachTemplateId: 'tpl_1', whatsappAgentTemplateIds: [], timezone: 'Europe/Paris' });
      expectError(await patch(c.id, { whatsappEnabled: 'yes' }), 400, 'invalid_body');
      expectError(await patch(c.id, { retryCount: null }), 400, 'invalid_body');
      expectError(await patch(c.id, { outreachRules: [] }), 400, 'invalid_body');
    });

    it('messaging switches with no source in the service are refused (400 invalid_body naming the field, nothing stored); their off values are accepted (decisions.md 30.20)', async () => {
      const c = await createCampaign(t, ws.key, { channel: 'WHATSAPP' });
      const before = await readCampaign(t, ws.key, c.id);
      const refused: Array<[string, unknown]> = [
        ['whatsappEnabled', true],
        ['whatsappPaymentLinkEnabled', true],
        ['recoveryLinkEnabled', true],
        ['whatsappAgentTemplateIds', ['tpl_2']],
      ];
      for (const [field, value] of refused) {
        const res = await patch(c.id, { description: 'changed', [field]: value });
        expectError(res, 400, 'invalid_body');
        expect(JSON.stringify(res.body.issues)).toContain(field);
        const created = await t.http.post('/v1/campaigns').set(bearer(ws.key)).send({ name: `refused ${field}`, channel: 'WHATSAPP', source: 'CSV', [field]: value });
        expectError(created, 400, 'invalid_body');
      }
      expect(await readCampaign(t, ws.key, c.id)).toEqual(before);
      const off = { whatsappEnabled: false, whatsappPaymentLinkEnabled: false, recoveryLinkEnabled: false, whatsappAgentTemplateIds: [] };
      const res = await patch(c.id, off);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject(off);
    });

    it('audience fields are DRAFT-only: 409 campaign_not_draft on a PAUSED campaign', async () => {
      const c = await createCampaign(t, ws.key);
      await setStatus(c.id, 'PAUSED');
      const before = await readCampaign(t, ws.key, c.id);
      for (const body of [
        { source: 'API' },
        { channel: 'WHATSAPP' },
        { phoneColumn: 'phone' },
        { altPhoneColumns: ['alt'] },
        { uploadId: UNKNOWN, phoneColumn: 'phone' },
        { customExtractionKeys: [key('pet')] },
        { customExtractionKeysMode: 'REPLACE' },
        { name: 'also renamed', source: 'API' },
      ]) {
        expectError(await patch(c.id, body), 409, 'campaign_not_draft');
      }
      expect(await readCampaign(t, ws.key, c.id)).toEqual(before);
    });

    it('409 name_taken; 409 campaign_source_locked once the campaign has contacts', async () => {
      const a = await createCampaign(t, ws.key, { name: 'Alpha' });
      const b = await createCampaign(t, ws.key);
      expectError(await patch(b.id, { name: 'ALPHA' }), 409, 'name_taken');
      expect((await patch(a.id, { name: 'Alpha' })).status).toBe(200); // its own name
      expect((await patch(b.id, { source: 'API' })).body.source).toBe('API');
      expect((await patch(b.id, { source: 'CSV' })).body.source).toBe('CSV');
      await addContacts(t, ws.key, b.id, ['+14155552671']);
      const before = await readCampaign(t, ws.key, b.id);
      expectError(await patch(b.id, { source: 'API' }), 409, 'campaign_source_locked');
      expect(await readCampaign(t, ws.key, b.id)).toEqual(before);
      expect((await patch(b.id, { source: 'CSV', description: 'same source is fine' })).status).toBe(200);
    });

    it('rules on PATCH: campaign_type_not_found, metric collisions with the type, CRM and journey rules', async () => {
      const c = await createCampaign(t, ws.key, { evaluationMetrics: [metric('budget')] });
      const before = await readCampaign(t, ws.key, c.id);
      expectError(await patch(c.id, { campaignTypeId: UNKNOWN }), 400, 'campaign_type_not_found');
      expectError(await patch(c.id, { campaignTypeId: PLATFORM_TYPE }), 400, 'metric_key_collision');
      expectError(await patch(c.id, { evaluationMetrics: [metric('summary')] }), 400, 'reserved_metric_key');
      expectError(await patch(c.id, { source: 'CRM_WEBHOOK' }), 400, 'default_crm_connection_required');
      expectError(await patch(c.id, { source: 'CRM_WEBHOOK', defaultCrmConnectionId: 'crm_9' }), 400, 'crm_connection_not_found');
      expectError(await patch(c.id, { workflowId: WORKFLOW_ID }), 404, 'workflow_not_found');
      workflows.statuses.set(WORKFLOW_ID, 'ACTIVE');
      expectError(await patch(c.id, { workflowId: WORKFLOW_ID, source: 'CRM_MANUAL' }), 400, 'journey_campaign_source_unsupported');
      expect(await readCampaign(t, ws.key, c.id)).toEqual(before);

      const res = await patch(c.id, { evaluationMetrics: [], campaignTypeId: PLATFORM_TYPE, customExtractionKeysMode: 'REPLACE', customExtractionKeys: [key('budget')] });
      expect(res.status).toBe(200);
      expect(res.body.effectiveExtractionKeys).toEqual([{ name: 'budget', type: 'string', description: 'about budget' }]);
    });
  });

  describe('PUT /campaigns/{id}/custom-keys', () => {
    it('replaces the custom keys; effectiveExtractionKeys follows customExtractionKeysMode', async () => {
      const c = await createCampaign(t, ws.key, { campaignTypeId: PLATFORM_TYPE });
      const res = await t.http
        .put(`/campaigns/${c.id}/custom-keys`)
        .set(bearer(ws.key))
        .send({ customExtractionKeys: [{ name: 'timeline', description: 'custom timeline' }, { name: 'pet', description: 'pet', type: 'boolean' }] });
      expect(res.status).toBe(200);
      expect(res.body.effectiveExtractionKeys).toEqual([
        { name: 'budget', type: 'string', description: 'Budget the lead mentioned, with currency if given' },
        { name: 'timeline', type: 'string', description: 'custom timeline' },
        { name: 'decision_maker', type: 'boolean', description: 'Whether the person can decide the purchase' },
        { name: 'pet', type: 'boolean', description: 'pet' },
      ]);
      const replaced = await t.http
        .put(`/campaigns/${c.id}/custom-keys`)
        .set(bearer(ws.key))
        .send({ customExtractionKeys: [key('pet')], customExtractionKeysMode: 'REPLACE' });
      expect(replaced.body.effectiveExtractionKeys).toEqual([{ name: 'pet', type: 'string', description: 'about pet' }]);
    });

    it('400 reserved_extraction_key, metric_key_collision, invalid_body over 40; 409 campaign_not_draft; 404', async () => {
      const c = await createCampaign(t, ws.key, { evaluationMetrics: [metric('qualified')] });
      const put = (body: unknown, id = c.id) => t.http.put(`/campaigns/${id}/custom-keys`).set(bearer(ws.key)).send(body as object);
      const before = await readCampaign(t, ws.key, c.id);
      expectError(await put({ customExtractionKeys: [key('recording_url')] }), 400, 'reserved_extraction_key');
      expectError(await put({ customExtractionKeys: [key('Qualified')] }), 400, 'metric_key_collision');
      expectError(await put({ customExtractionKeys: times(41, (i) => key(`k${i}`)) }), 400, 'invalid_body');
      expectError(await put({ customExtractionKeys: [key('a'), key('A')] }), 400, 'invalid_body');
      expectError(await put({ customExtractionKeys: [] }, UNKNOWN), 404, 'campaign_not_found');
      expect(await readCampaign(t, ws.key, c.id)).toEqual(before);
      for (const status of ['PAUSED', 'RUNNING']) {
        await setStatus(c.id, status);
        expectError(await put({ customExtractionKeys: [key('pet')] }), 409, 'campaign_not_draft');
      }
      expect((await readCampaign(t, ws.key, c.id)).customExtractionKeys).toEqual([]);
    });
  });

  describe('DELETE /campaigns/{id}', () => {
    it('deletes DRAFT, CANCELED and COMPLETED campaigns with their contacts; 409 campaign_delete_active otherwise', async () => {
      const c = await createCampaign(t, ws.key);
      await addContacts(t, ws.key, c.id, ['+14155552671']);
      for (const status of ['RUNNING', 'PAUSED', 'CREDIT_EXHAUSTED']) {
        await setStatus(c.id, status);
        expectError(await t.http.delete(`/campaigns/${c.id}`).set(bearer(ws.key)), 409, 'campaign_delete_active');
        expect((await readCampaign(t, ws.key, c.id)).status).toBe(status);
      }
      for (const status of ['DRAFT', 'CANCELED', 'COMPLETED']) {
        const d = await createCampaign(t, ws.key);
        await setStatus(d.id, status);
        await t.http.delete(`/campaigns/${d.id}`).set(bearer(ws.key)).expect(204);
        expectError(await t.http.get(`/v1/campaigns/${d.id}`).set(bearer(ws.key)), 404, 'campaign_not_found');
      }
      await setStatus(c.id, 'DRAFT');
      await t.http.delete(`/campaigns/${c.id}`).set(bearer(ws.key)).expect(204);
      expect((await t.dataSource.query(`SELECT count(*)::int AS n FROM campaign_contacts`))[0].n).toBe(0);
      expectError(await t.http.delete(`/campaigns/${c.id}`).set(bearer(ws.key)), 404, 'campaign_not_found');
    });

    it('409 campaign_delete_import_in_progress while a CRM import is pending or running', async () => {
      const c = await createCampaign(t, ws.key);
      crm.importing.add(c.id);
      expectError(await t.http.delete(`/campaigns/${c.id}`).set(bearer(ws.key)), 409, 'campaign_delete_import_in_progress');
      expect((await readCampaign(t, ws.key, c.id)).status).toBe('DRAFT');
    });

    it('another workspace’s campaign is not found', async () => {
      const c = await createCampaign(t, ws.key);
      const other = await t.seed();
      expectError(await t.http.delete(`/campaigns/${c.id}`).set(bearer(other.key)), 404, 'campaign_not_found');
      expect((await readCampaign(t, ws.key, c.id)).id).toBe(c.id);
    });
  });

  it('an agent named by a campaign cannot be deleted for good (409 in_use, through the agents’ reference registry)', async () => {
    const agent = await createActiveAgent(t, ws.key);
    const c = await createCampaign(t, ws.key, { agentId: agent.id });
    await attachNumber(t, ws.key, ws.workspaceId, c.id);
    await credit(t, ws.workspaceId);
    expectError(await t.http.delete(`/agents/${agent.id}?permanent=true`).set(bearer(ws.key)), 409, 'in_use');
    await t.http.delete(`/campaigns/${c.id}`).set(bearer(ws.key)).expect(204);
    expect((await t.http.delete(`/agents/${agent.id}?permanent=true`).set(bearer(ws.key))).status).toBe(204);
  });
});
