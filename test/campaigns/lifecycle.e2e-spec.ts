import { CrmDirectory, WorkflowDirectory } from '@outreach/campaigns';
import { Clock, FixedClock } from '@outreach/platform';
import { PhoneNumberAdministration } from '@outreach/telephony';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { agentBody, createActiveAgent } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { addContacts, attachNumber, createCampaign, credit, expectError, readCampaign, workspaceSettings } from './campaign-helpers';

/*
 * Ports to modules not built yet, faked so every start check can be provoked (defaults: "none
 * configured"). The WhatsApp and email checks use the messaging module's real senders and templates:
 * test/messaging/campaign-start.e2e-spec.ts.
 */
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

const WORKFLOW_ID = '7a0e6f43-4f43-4a8e-9a55-3c1f0f1b0a01';
const T0 = new Date('2026-11-21T10:00:00Z');

describe('campaign lifecycle: transitions and start checks (decisions.md 12.1, 12.4)', () => {
  let t: TestApp;
  let ws: Seeded;
  const clock = new FixedClock(T0);
  const workflows = new FakeWorkflows();
  const crm = new FakeCrm();

  beforeAll(async () => {
    t = await TestApp.create({
      configure: (b) =>
        b
          .overrideProvider(Clock)
          .useValue(clock)
          .overrideProvider(WorkflowDirectory)
          .useValue(workflows)
          .overrideProvider(CrmDirectory)
          .useValue(crm),
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    clock.set(T0);
    workflows.statuses.clear();
    crm.connections.clear();
    await t.reset();
    ws = await t.seed();
  });

  const post = (path: string, body: Record<string, unknown> = {}, key = ws.key) => t.http.post(path).set(bearer(key)).send(body);

  /** A VOICE CSV campaign that passes every start check. */
  async function readyCampaign(extra: Record<string, unknown> = {}, contacts = ['+14155552671']) {
    const agent = await createActiveAgent(t, ws.key);
    const campaign = await createCampaign(t, ws.key, { agentId: agent.id, ...extra });
    await attachNumber(t, ws.key, ws.workspaceId, campaign.id);
    if (contacts.length) await addContacts(t, ws.key, campaign.id, contacts);
    await credit(t, ws.workspaceId);
    return campaign;
  }

  async function outboxJobs(campaignId: string): Promise<Array<{ queue: string; name: string; payload: { campaignId: string } }>> {
    return t.dataSource.query(`SELECT queue, name, payload FROM outbox WHERE payload->>'campaignId' = $1 ORDER BY created_at`, [campaignId]);
  }

  /** A refused request changes nothing: the campaign reads back identical and no job was written. */
  async function expectUnchanged(campaignId: string, before: Record<string, unknown>, jobsBefore = 0) {
    expect(await readCampaign(t, ws.key, campaignId)).toEqual(before);
    expect(await outboxJobs(campaignId)).toHaveLength(jobsBefore);
  }

  it('start: DRAFT → RUNNING with the reservation, one dispatch job in the outbox', async () => {
    const c = await readyCampaign();
    const res = await post(`/campaigns/${c.id}/start`, { reservedConcurrency: 3, allowBurst: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: c.id, status: 'RUNNING', reservedConcurrency: 3, allowBurst: true, startedAt: T0.toISOString() });
    expect(await outboxJobs(c.id)).toEqual([{ queue: 'campaigns', name: 'dispatch', payload: { campaignId: c.id } }]);
    expect((await readCampaign(t, ws.key, c.id)).status).toBe('RUNNING');
  });

  it('the /v1 forms of the lifecycle routes work too; the reservation defaults to the stored one', async () => {
    const c = await readyCampaign({ reservedConcurrency: 2 });
    expect((await post(`/v1/campaigns/${c.id}/start`)).body).toMatchObject({ status: 'RUNNING', reservedConcurrency: 2 });
    expect((await post(`/v1/campaigns/${c.id}/pause`)).body.status).toBe('PAUSED');
    expect((await post(`/v1/campaigns/${c.id}/resume`)).body.status).toBe('RUNNING');
    expect((await post(`/v1/campaigns/${c.id}/stop`)).body.status).toBe('CANCELED');
    expect((await post(`/v1/campaigns/${c.id}/restart`)).body.status).toBe('RUNNING');
  });

  it('402 workspace_not_active, activity_frozen, insufficient_credits (an active trial covers an empty wallet)', async () => {
    const agent = await createActiveAgent(t, ws.key);
    const c = await createCampaign(t, ws.key, { agentId: agent.id });
    await attachNumber(t, ws.key, ws.workspaceId, c.id);
    await addContacts(t, ws.key, c.id, ['+14155552671']);
    const before = await readCampaign(t, ws.key, c.id);

    await t.get(WorkspaceAdministration).setStatus(ws.workspaceId, 'INACTIVE');
    await workspaceSettings(t, ws.workspaceId, { activityFrozen: true });
    expectError(await post(`/campaigns/${c.id}/start`), 402, 'workspace_not_active');
    await t.get(WorkspaceAdministration).setStatus(ws.workspaceId, 'ACTIVE');
    expectError(await post(`/campaigns/${c.id}/start`), 402, 'activity_frozen');
    await workspaceSettings(t, ws.workspaceId, { activityFrozen: false });
    expectError(await post(`/campaigns/${c.id}/start`), 402, 'insufficient_credits');
    await expectUnchanged(c.id, before);

    await workspaceSettings(t, ws.workspaceId, { trialUntil: new Date(T0.getTime() + 3600_000) });
    clock.advance(3600_000); // the trial has just ended
    expectError(await post(`/campaigns/${c.id}/start`), 402, 'insufficient_credits');
    clock.set(T0);
    expect((await post(`/campaigns/${c.id}/start`)).status).toBe(200);
  });

  it('400 campaign_schedule_expired once scheduledEndAt has passed', async () => {
    const c = await readyCampaign({ scheduledEndAt: new Date(T0.getTime() + 60_000).toISOString() });
    clock.advance(60_000);
    const before = await readCampaign(t, ws.key, c.id);
    expectError(await post(`/campaigns/${c.id}/start`), 400, 'campaign_schedule_expired');
    await expectUnchanged(c.id, before);
  });

  it('voice legs: 400 campaign_channel_needs_agent, agent_not_found_or_not_provisioned', async () => {
    await credit(t, ws.workspaceId);
    const noAgent = await createCampaign(t, ws.key);
    expectError(await post(`/campaigns/${noAgent.id}/start`), 400, 'campaign_channel_needs_agent');

    const provisioning = await t.http.post('/agents').set(bearer(ws.key)).send(agentBody());
    expect(provisioning.body.status).toBe('PROVISIONING');
    const c = await createCampaign(t, ws.key, { agentId: provisioning.body.id });
    const before = await readCampaign(t, ws.key, c.id);
    expectError(await post(`/campaigns/${c.id}/start`), 400, 'agent_not_found_or_not_provisioned');
    await expectUnchanged(c.id, before);
  });

  it('message legs without a WhatsApp sender: 400 campaign_channel_needs_sender (the messaging module answers; the other codes: test/messaging)', async () => {
    await credit(t, ws.workspaceId);
    const c = await createCampaign(t, ws.key, { channel: 'WHATSAPP', whatsappOutreachTemplateId: 'tpl_1' });
    await addContacts(t, ws.key, c.id, ['+14155552671']);
    const before = await readCampaign(t, ws.key, c.id);
    expectError(await post(`/campaigns/${c.id}/start`), 400, 'campaign_channel_needs_sender');
    await expectUnchanged(c.id, before);
  });

  it('email without a mailbox: needs_email_sender (the messaging module answers); custom: needs_workflow', async () => {
    await credit(t, ws.workspaceId);
    const mail = await createCampaign(t, ws.key, { channel: 'EMAIL' });
    await addContacts(t, ws.key, mail.id, ['+14155552671']);
    expectError(await post(`/campaigns/${mail.id}/start`), 400, 'campaign_channel_needs_email_sender');

    const custom = await createCampaign(t, ws.key, { channel: 'CUSTOM' });
    const before = await readCampaign(t, ws.key, custom.id);
    expectError(await post(`/campaigns/${custom.id}/start`), 400, 'campaign_channel_needs_workflow');
    await expectUnchanged(custom.id, before);
  });

  it('journey campaigns: 400 campaign_workflow_not_active at start; restart and contact retry are unsupported', async () => {
    workflows.statuses.set(WORKFLOW_ID, 'ACTIVE');
    const c = await readyCampaign({ channel: 'CUSTOM', workflowId: WORKFLOW_ID, agentId: undefined }, ['+14155552671']);
    workflows.statuses.set(WORKFLOW_ID, 'DRAFT');
    expectError(await post(`/campaigns/${c.id}/start`), 400, 'campaign_workflow_not_active');
    workflows.statuses.set(WORKFLOW_ID, 'ACTIVE');
    expect((await post(`/campaigns/${c.id}/start`)).status).toBe(200);

    const [contact] = (await t.http.get(`/campaigns/${c.id}/leads`).set(bearer(ws.key))).body.items;
    await t.dataSource.query(`UPDATE campaign_contacts SET status = 'FAILED' WHERE id = $1`, [contact.id]);
    expectError(await post(`/campaigns/${c.id}/contacts/${contact.id}/retry`), 400, 'journey_campaign_action_unsupported');
    expect((await post(`/campaigns/${c.id}/stop`)).status).toBe(200);
    const before = await readCampaign(t, ws.key, c.id);
    expectError(await post(`/campaigns/${c.id}/restart`), 400, 'journey_campaign_action_unsupported');
    await expectUnchanged(c.id, before, 1);
  });

  it('400 campaign_no_phone_numbers without numbers, or with numbers on a disabled carrier', async () => {
    const agent = await createActiveAgent(t, ws.key);
    await credit(t, ws.workspaceId);
    const c = await createCampaign(t, ws.key, { agentId: agent.id });
    await addContacts(t, ws.key, c.id, ['+14155552671']);
    expectError(await post(`/campaigns/${c.id}/start`), 400, 'campaign_no_phone_numbers');
    await attachNumber(t, ws.key, ws.workspaceId, c.id);
    await t.get(PhoneNumberAdministration).setCarrier({ workspaceId: ws.workspaceId, carrier: 'sandbox', enabled: false });
    const before = await readCampaign(t, ws.key, c.id);
    expectError(await post(`/campaigns/${c.id}/start`), 400, 'campaign_no_phone_numbers');
    await expectUnchanged(c.id, before);
    await t.get(PhoneNumberAdministration).setCarrier({ workspaceId: ws.workspaceId, carrier: 'sandbox', enabled: true });
    expect((await post(`/campaigns/${c.id}/start`)).status).toBe(200);
  });

  it('400 campaign_no_pending_contacts for list sources; API campaigns start without contacts', async () => {
    const c = await readyCampaign({}, []);
    expectError(await post(`/campaigns/${c.id}/start`), 400, 'campaign_no_pending_contacts');
    const api = await createCampaign(t, ws.key, { source: 'API', agentId: c.agentId });
    await attachNumber(t, ws.key, ws.workspaceId, api.id);
    expect((await post(`/campaigns/${api.id}/start`)).body.status).toBe('RUNNING');
  });

  it('400 campaign_is_inbound_misconfigured: an outbound campaign with an INBOUND agent and no contacts', async () => {
    const inboundAgent = await createActiveAgent(t, ws.key, { agentType: 'INBOUND' });
    await credit(t, ws.workspaceId);
    const c = await createCampaign(t, ws.key, { source: 'API', agentId: inboundAgent.id });
    await attachNumber(t, ws.key, ws.workspaceId, c.id);
    const before = await readCampaign(t, ws.key, c.id);
    expectError(await post(`/campaigns/${c.id}/start`), 400, 'campaign_is_inbound_misconfigured');
    await expectUnchanged(c.id, before);
  });

  it('400 invalid_reserved_concurrency outside 1..allocation; a non-integer is invalid_body', async () => {
    const c = await readyCampaign();
    const before = await readCampaign(t, ws.key, c.id);
    expectError(await post(`/campaigns/${c.id}/start`, { reservedConcurrency: 0 }), 400, 'invalid_reserved_concurrency');
    expectError(await post(`/campaigns/${c.id}/start`, { reservedConcurrency: 11 }), 400, 'invalid_reserved_concurrency');
    expectError(await post(`/campaigns/${c.id}/start`, { reservedConcurrency: 'two' }), 400, 'invalid_body');
    expectError(await post(`/campaigns/${c.id}/start`, { reservedConcurrency: 1, extra: true }), 400, 'invalid_body');
    await expectUnchanged(c.id, before);
    expect((await post(`/campaigns/${c.id}/start`, { reservedConcurrency: 10 })).status).toBe(200);
  });

  it('400 reserved_exceeds_allocation: running reservations may not exceed the workspace allocation', async () => {
    await workspaceSettings(t, ws.workspaceId, { concurrency: 4 });
    const a = await readyCampaign();
    const b = await readyCampaign({}, ['+14155552672']);
    expect((await post(`/campaigns/${a.id}/start`, { reservedConcurrency: 3 })).status).toBe(200);
    const before = await readCampaign(t, ws.key, b.id);
    expectError(await post(`/campaigns/${b.id}/start`, { reservedConcurrency: 2 }), 400, 'reserved_exceeds_allocation');
    await expectUnchanged(b.id, before);
    expect((await post(`/campaigns/${b.id}/start`, { reservedConcurrency: 1 })).status).toBe(200);
    // a paused campaign releases its reservation
    expect((await post(`/campaigns/${a.id}/pause`)).status).toBe(200);
    expectError(await post(`/campaigns/${a.id}/resume`, { reservedConcurrency: 4 }), 400, 'reserved_exceeds_allocation');
    expect((await post(`/campaigns/${a.id}/resume`, { reservedConcurrency: 3 })).status).toBe(200);
  });

  it('concurrent starts never over-reserve the allocation', async () => {
    await workspaceSettings(t, ws.workspaceId, { concurrency: 3 });
    const campaigns = [];
    for (let i = 0; i < 4; i++) campaigns.push(await readyCampaign({}, [`+1415555267${i}`]));
    const results = await Promise.all(campaigns.map((c) => post(`/campaigns/${c.id}/start`, { reservedConcurrency: 1 })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 400]);
    const [{ total }] = await t.dataSource.query(
      `SELECT SUM(reserved_concurrency)::int AS total FROM campaigns WHERE workspace_id = $1 AND status = 'RUNNING'`,
      [ws.workspaceId],
    );
    expect(total).toBe(3);
  });

  it('the transition table over HTTP: every refusal answers its code and changes nothing', async () => {
    const c = await readyCampaign();
    expectError(await post(`/campaigns/${c.id}/pause`), 400, 'campaign_not_running');
    expectError(await post(`/campaigns/${c.id}/resume`), 400, 'campaign_not_paused');
    expectError(await post(`/campaigns/${c.id}/restart`), 400, 'campaign_not_restartable');

    expect((await post(`/campaigns/${c.id}/start`)).status).toBe(200);
    let before = await readCampaign(t, ws.key, c.id);
    expectError(await post(`/campaigns/${c.id}/start`), 400, 'campaign_not_startable');
    expectError(await post(`/campaigns/${c.id}/resume`), 400, 'campaign_not_paused');
    expectError(await post(`/campaigns/${c.id}/restart`), 400, 'campaign_not_restartable');
    await expectUnchanged(c.id, before, 1);

    expect((await post(`/campaigns/${c.id}/pause`)).body).toMatchObject({ status: 'PAUSED', pauseReason: 'user' });
    expectError(await post(`/campaigns/${c.id}/pause`), 400, 'campaign_not_running');
    // a PAUSED campaign may also be started through /start
    expect((await post(`/campaigns/${c.id}/start`)).body.status).toBe('RUNNING');

    clock.advance(5000);
    const stopped = await post(`/campaigns/${c.id}/stop`);
    expect(stopped.body).toMatchObject({ status: 'CANCELED', endedAt: clock.now().toISOString() });
    before = await readCampaign(t, ws.key, c.id);
    expectError(await post(`/campaigns/${c.id}/stop`), 400, 'campaign_already_terminal');
    expectError(await post(`/campaigns/${c.id}/start`), 400, 'campaign_not_startable');
    expectError(await post(`/campaigns/${c.id}/pause`), 400, 'campaign_not_running');
    expectError(await post(`/campaigns/${c.id}/resume`), 400, 'campaign_not_paused');
    await expectUnchanged(c.id, before, 2);
  });

  it('a DRAFT can be stopped; CREDIT_EXHAUSTED (set by the engine) can be started again', async () => {
    const c = await readyCampaign();
    expect((await post(`/campaigns/${c.id}/start`)).status).toBe(200);
    await t.dataSource.query(`UPDATE campaigns SET status = 'CREDIT_EXHAUSTED' WHERE id = $1`, [c.id]);
    expectError(await post(`/campaigns/${c.id}/pause`), 400, 'campaign_not_running');
    expect((await post(`/campaigns/${c.id}/start`)).body.status).toBe('RUNNING');
    const draft = await createCampaign(t, ws.key);
    expect((await post(`/campaigns/${draft.id}/stop`)).body.status).toBe('CANCELED');
  });

  it('restart: FAILED and unreached contacts go back to PENDING; COMPLETED stay; refused restarts roll back', async () => {
    const c = await readyCampaign({}, ['+14155552671', '+14155552672', '+14155552673', '+14155552674']);
    expect((await post(`/campaigns/${c.id}/start`)).status).toBe(200);
    const setStatus = (phone: string, status: string) =>
      t.dataSource.query(`UPDATE campaign_contacts SET status = $3, attempts = 3 WHERE campaign_id = $1 AND phone = $2`, [c.id, phone, status]);
    await setStatus('+14155552671', 'COMPLETED');
    await setStatus('+14155552672', 'FAILED');
    await setStatus('+14155552673', 'RETRY_SCHEDULED');
    await setStatus('+14155552674', 'DO_NOT_CALL');
    expect((await post(`/campaigns/${c.id}/stop`)).status).toBe(200);
    const statuses = async () =>
      (await t.dataSource.query(`SELECT phone, status, attempts FROM campaign_contacts WHERE campaign_id = $1 ORDER BY phone`, [c.id])) as Array<{
        phone: string;
        status: string;
        attempts: number;
      }>;
    const stoppedContacts = await statuses();

    // A refused restart (wallet empty) leaves the contacts as they were.
    await t.dataSource.query(`UPDATE wallets SET balance_minor = 0 WHERE workspace_id = $1`, [ws.workspaceId]);
    const before = await readCampaign(t, ws.key, c.id);
    expectError(await post(`/campaigns/${c.id}/restart`), 402, 'insufficient_credits');
    expect(await statuses()).toEqual(stoppedContacts);
    await expectUnchanged(c.id, before, 1);

    await credit(t, ws.workspaceId);
    clock.advance(60_000);
    const res = await post(`/campaigns/${c.id}/restart`);
    expect(res.body).toMatchObject({ status: 'RUNNING', startedAt: clock.now().toISOString(), endedAt: null });
    expect(await statuses()).toEqual([
      { phone: '+14155552671', status: 'COMPLETED', attempts: 3 },
      { phone: '+14155552672', status: 'PENDING', attempts: 0 },
      { phone: '+14155552673', status: 'PENDING', attempts: 0 },
      { phone: '+14155552674', status: 'DO_NOT_CALL', attempts: 3 },
    ]);
    expect(await outboxJobs(c.id)).toHaveLength(2);
  });

  it('tenancy: another workspace’s campaign is not found (pause: 400 campaign_not_running, the spec’s quirk)', async () => {
    const c = await readyCampaign();
    const other = await t.seed();
    expectError(await post(`/campaigns/${c.id}/start`, {}, other.key), 404, 'campaign_not_found');
    expectError(await post(`/campaigns/${c.id}/stop`, {}, other.key), 404, 'campaign_not_found');
    expectError(await post(`/campaigns/${c.id}/resume`, {}, other.key), 404, 'campaign_not_found');
    expectError(await post(`/campaigns/${c.id}/restart`, {}, other.key), 404, 'campaign_not_found');
    expectError(await post(`/campaigns/${c.id}/pause`, {}, other.key), 400, 'campaign_not_running');
    expectError(await post(`/campaigns/not-a-uuid/pause`), 400, 'campaign_not_running');
    expectError(await post(`/campaigns/not-a-uuid/start`), 404, 'campaign_not_found');
    expect((await readCampaign(t, ws.key, c.id)).status).toBe('DRAFT');
  });

  it('scopes: lifecycle routes need campaigns.edit', async () => {
    const c = await readyCampaign();
    const viewer = await t.addKey(ws.workspaceId, { scopes: ['campaigns.view'] });
    const res = await post(`/campaigns/${c.id}/start`, {}, viewer.key);
    expectError(res, 403, 'forbidden');
    expect(res.body.requiredPermission).toBe('campaigns.edit');
  });
});
