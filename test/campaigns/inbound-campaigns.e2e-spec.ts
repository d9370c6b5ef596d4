import { randomUUID } from 'node:crypto';
import { PhoneNumberAdministration } from '@outreach/telephony';
import { createActiveAgent } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { createCampaign, credit, expectError, randomE164, uniqueName } from './campaign-helpers';

/*
 * Inbound numbers and INBOUND campaigns (decisions.md 36.1, 36.2): PUT /phone-numbers/{id}/inbound-agent,
 * create with source INBOUND, the start checks of the numbers an INBOUND campaign answers on, and the
 * operations the contract forbids for it. Every refused request changes nothing.
 */
jest.setTimeout(120_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely, field by field
type Loose = Record<string, any>;

describe('inbound numbers and INBOUND campaigns', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed({ features: ['inbound'] });
    await credit(t, ws.workspaceId);
  });

  const api = (key = ws.key) => ({
    post: (path: string, body: object = {}) => t.http.post(path).set(bearer(key)).send(body),
    put: (path: string, body: object) => t.http.put(path).set(bearer(key)).send(body),
    patch: (path: string, body: object) => t.http.patch(path).set(bearer(key)).send(body),
    get: (path: string) => t.http.get(path).set(bearer(key)),
  });
  const addNumber = (options: { inbound?: boolean; carrier?: string; workspaceId?: string } = {}) =>
    t.get(PhoneNumberAdministration).add({ workspaceId: options.workspaceId ?? ws.workspaceId, e164: randomE164(), inbound: options.inbound ?? true, carrier: options.carrier });
  const assignedAgent = async (numberId: string) => (await api().get('/phone-numbers')).body.phoneNumbers.find((n: Loose) => n.id === numberId).inboundAgentId;
  const inboundAgent = () => createActiveAgent(t, ws.key, { agentType: 'INBOUND' });
  const assign = (numberId: string, agentId: string | null) => api().put(`/phone-numbers/${numberId}/inbound-agent`, { agentId });
  const status = async (id: string) => (await api().get(`/v1/campaigns/${id}`)).body.status;

  describe('PUT /phone-numbers/{id}/inbound-agent', () => {
    it('assigns an INBOUND agent, shows it on the number, and clears it with null', async () => {
      const agent = await inboundAgent();
      const number = await addNumber();
      const res = await assign(number.id, agent.id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: number.id, e164: number.e164, inboundAgentId: agent.id });
      expect(await assignedAgent(number.id)).toBe(agent.id);
      expect((await assign(number.id, null)).body.inboundAgentId).toBeNull();
      expect(await assignedAgent(number.id)).toBeNull();
    });

    it('refuses: 404 phone_number_not_found, 400 agent_not_found, agent_archived, agent_type_not_inbound, 409 phone_number_not_synced, 400 invalid_body; nothing changes', async () => {
      const agent = await inboundAgent();
      const number = await addNumber();
      expect((await assign(number.id, agent.id)).status).toBe(200);

      const other = await t.seed({ features: ['inbound'] });
      const foreign = await addNumber({ workspaceId: other.workspaceId });
      expectError(await assign(foreign.id, agent.id), 404, 'phone_number_not_found');
      expectError(await assign(randomUUID(), agent.id), 404, 'phone_number_not_found');
      expectError(await assign(number.id, randomUUID()), 400, 'agent_not_found');
      const outbound = await createActiveAgent(t, ws.key);
      expectError(await assign(number.id, outbound.id), 400, 'agent_type_not_inbound');
      const archived = await inboundAgent();
      expect((await t.http.delete(`/agents/${archived.id}`).set(bearer(ws.key))).status).toBe(200);
      expectError(await assign(number.id, archived.id), 400, 'agent_archived');
      expectError(await api().put(`/phone-numbers/${number.id}/inbound-agent`, {}), 400, 'invalid_body');
      expect(await assignedAgent(number.id)).toBe(agent.id);

      // A number on a Vapi carrier takes calls only once imported there (number:sync).
      await t.get(PhoneNumberAdministration).configureCarrier({ workspaceId: ws.workspaceId, carrier: 'vapi-main', adapter: 'vapi', credentials: { apiKey: 'k', serverSecret: 's' } });
      const unsynced = await addNumber({ carrier: 'vapi-main' });
      expectError(await assign(unsynced.id, agent.id), 409, 'phone_number_not_synced');
      expect(await assignedAgent(unsynced.id)).toBeNull();
    });

    it('is the workspace feature inbound: without it 403 feature_not_available, for the route and for INBOUND campaigns', async () => {
      const off = await t.seed();
      const number = await addNumber({ workspaceId: off.workspaceId });
      const agent = await createActiveAgent(t, off.key, { agentType: 'INBOUND' });
      expectError(await api(off.key).put(`/phone-numbers/${number.id}/inbound-agent`, { agentId: agent.id }), 403, 'feature_not_available');
      expectError(await api(off.key).post('/v1/campaigns', { name: uniqueName(), channel: 'VOICE', source: 'INBOUND', agentId: agent.id }), 403, 'feature_not_available');
      expect((await api(off.key).get('/v1/campaigns')).body.campaigns).toHaveLength(0);
      expect((await api(off.key).get('/phone-numbers')).body.phoneNumbers[0].inboundAgentId).toBeNull();
    });
  });

  describe('INBOUND campaigns', () => {
    it('create: an INBOUND agent (agent_type_not_inbound otherwise), channel VOICE, no upload, a number of the workspace', async () => {
      const outbound = await createActiveAgent(t, ws.key);
      const agent = await inboundAgent();
      const base = { name: uniqueName(), channel: 'VOICE', source: 'INBOUND' };
      expectError(await api().post('/v1/campaigns', { ...base, agentId: outbound.id }), 400, 'agent_type_not_inbound');
      expectError(await api().post('/v1/campaigns', { ...base, channel: 'WHATSAPP', agentId: agent.id }), 400, 'inbound_campaign_action_not_supported');
      expectError(await api().post('/v1/campaigns', { ...base, agentId: agent.id, uploadId: randomUUID(), phoneColumn: 'phone' }), 400, 'inbound_campaign_action_not_supported');
      const other = await t.seed();
      const foreign = await addNumber({ workspaceId: other.workspaceId });
      expectError(await api().post('/v1/campaigns', { ...base, agentId: agent.id, phoneNumberId: foreign.id }), 400, 'phone_number_not_in_workspace');
      expectError(await api().post('/v1/campaigns', { ...base, source: 'CSV', phoneNumberId: foreign.id }), 400, 'invalid_request');
      expect((await api().get('/v1/campaigns')).body.campaigns).toHaveLength(0);

      const number = await addNumber();
      const created = await api().post('/v1/campaigns', { ...base, agentId: agent.id, phoneNumberId: number.id });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ source: 'INBOUND', status: 'DRAFT', receivedCalls: 0 });
      expect((await api().get(`/campaigns/${created.body.id}/phone-numbers`)).body.phoneNumbers.map((n: Loose) => n.id)).toEqual([number.id]);
    });

    it('start: the agent\'s only number is taken; no number, several numbers → inbound_agent_has_no_number / inbound_agent_has_many_numbers', async () => {
      const agent = await inboundAgent();
      const campaign = await createCampaign(t, ws.key, { source: 'INBOUND', agentId: agent.id });
      expectError(await api().post(`/campaigns/${campaign.id}/start`), 400, 'inbound_agent_has_no_number');
      const first = await addNumber();
      const second = await addNumber();
      await assign(first.id, agent.id);
      await assign(second.id, agent.id);
      expectError(await api().post(`/campaigns/${campaign.id}/start`), 400, 'inbound_agent_has_many_numbers');
      expect(await status(campaign.id)).toBe('DRAFT');
      await assign(second.id, null);

      const started = await api().post(`/campaigns/${campaign.id}/start`);
      expect(started.status).toBe(200);
      expect(started.body.status).toBe('RUNNING');
      expect((await api().get(`/campaigns/${campaign.id}/phone-numbers`)).body.phoneNumbers.map((n: Loose) => n.id)).toEqual([first.id]);
    });

    it('start: the number must take calls on an enabled carrier (inbound_did_unavailable) and be answered by the campaign\'s ACTIVE INBOUND agent (inbound_did_has_no_agent)', async () => {
      const agent = await inboundAgent();
      const outboundOnly = await addNumber({ inbound: false });
      await assign(outboundOnly.id, agent.id);
      const a = await createCampaign(t, ws.key, { source: 'INBOUND', agentId: agent.id, phoneNumberId: outboundOnly.id });
      expectError(await api().post(`/campaigns/${a.id}/start`), 400, 'inbound_did_unavailable');

      const disabled = await addNumber({ carrier: 'off-carrier' });
      await assign(disabled.id, agent.id);
      const b = await createCampaign(t, ws.key, { source: 'INBOUND', agentId: agent.id, phoneNumberId: disabled.id });
      await t.get(PhoneNumberAdministration).setCarrier({ workspaceId: ws.workspaceId, carrier: 'off-carrier', enabled: false });
      expectError(await api().post(`/campaigns/${b.id}/start`), 400, 'inbound_did_unavailable');

      const unassigned = await addNumber();
      const c = await createCampaign(t, ws.key, { source: 'INBOUND', agentId: agent.id, phoneNumberId: unassigned.id });
      expectError(await api().post(`/campaigns/${c.id}/start`), 400, 'inbound_did_has_no_agent');
      const someoneElse = await inboundAgent();
      await assign(unassigned.id, someoneElse.id);
      expectError(await api().post(`/campaigns/${c.id}/start`), 400, 'inbound_did_has_no_agent');
      for (const id of [a.id, b.id, c.id]) expect(await status(id)).toBe('DRAFT');
    });

    it('start: a number answered by another live INBOUND campaign → 409 inbound_did_already_in_campaign', async () => {
      const agent = await inboundAgent();
      const number = await addNumber();
      await assign(number.id, agent.id);
      const first = await createCampaign(t, ws.key, { source: 'INBOUND', agentId: agent.id });
      const second = await createCampaign(t, ws.key, { source: 'INBOUND', agentId: agent.id, phoneNumberId: number.id });
      expect((await api().post(`/campaigns/${first.id}/start`)).status).toBe(200);
      expectError(await api().post(`/campaigns/${second.id}/start`), 409, 'inbound_did_already_in_campaign');
      expect(await status(second.id)).toBe('DRAFT');
      // Once the first one is stopped the number is free.
      expect((await api().post(`/campaigns/${first.id}/stop`)).status).toBe(200);
      expect((await api().post(`/campaigns/${second.id}/start`)).status).toBe(200);
    });

    it('an outbound campaign with an INBOUND agent and no contacts → campaign_is_inbound_misconfigured', async () => {
      const agent = await inboundAgent();
      const campaign = await createCampaign(t, ws.key, { source: 'API', agentId: agent.id });
      const number = await addNumber();
      expect((await api().post(`/campaigns/${campaign.id}/phone-numbers`, { phoneNumberId: number.id })).status).toBe(200);
      expectError(await api().post(`/campaigns/${campaign.id}/start`), 400, 'campaign_is_inbound_misconfigured');
      expect(await status(campaign.id)).toBe('DRAFT');
    });

    it('operations the contract forbids → 400 inbound_campaign_action_not_supported, nothing changes', async () => {
      const agent = await inboundAgent();
      const number = await addNumber();
      await assign(number.id, agent.id);
      const campaign = await createCampaign(t, ws.key, { source: 'INBOUND', agentId: agent.id });
      expectError(await api().patch(`/v1/campaigns/${campaign.id}`, { source: 'API' }), 400, 'inbound_campaign_action_not_supported');
      expectError(await api().patch(`/v1/campaigns/${campaign.id}`, { uploadId: randomUUID(), phoneColumn: 'phone' }), 400, 'inbound_campaign_action_not_supported');
      expectError(await api().post(`/campaigns/${campaign.id}/contacts`, [{ phone: '+14155550101' } as never] as never), 400, 'inbound_campaign_action_not_supported');
      expect((await api().get(`/v1/campaigns/${campaign.id}`)).body).toMatchObject({ source: 'INBOUND', contactCount: 0 });

      expect((await api().post(`/campaigns/${campaign.id}/start`)).status).toBe(200);
      expectError(await api().post(`/campaigns/${campaign.id}/pause`), 400, 'inbound_campaign_action_not_supported');
      expectError(await api().post(`/campaigns/${campaign.id}/resume`), 400, 'inbound_campaign_action_not_supported');
      expectError(await api().post(`/campaigns/${campaign.id}/phone-numbers`, { phoneNumberId: (await addNumber()).id }), 409, 'campaign_not_draft');
      expect(await status(campaign.id)).toBe('RUNNING');
      expect((await api().post(`/campaigns/${campaign.id}/stop`)).status).toBe(200);
      expectError(await api().post(`/campaigns/${campaign.id}/restart`), 400, 'inbound_campaign_action_not_supported');
      expect(await status(campaign.id)).toBe('CANCELED');
    });
  });
});
