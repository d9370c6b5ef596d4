import { createHash } from 'node:crypto';
import { PhoneNumberAdministration } from '@outreach/telephony';
import { createCampaign, credit, expectError } from '../campaigns/campaign-helpers';
import { createActiveAgent } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { countCalls, ledger, recordCall } from './call-fixtures';

/*
 * The two calls codes no other route raises (decisions.md 22.5, 22.6):
 *   GET /calls/{id}/contact → the campaign contact a call was placed to; a test call has none →
 *     409 no_contact_for_call; unknown, malformed or foreign ids → 404 call_not_found;
 *   POST /calls/test/web → a browser test session: the sandbox makes one up; a workspace whose
 *     carrier is Twilio or Vapi → 501 web_session_not_supported.
 * Every refusal is shown to change nothing (the call as it was, no call row, no ledger row).
 */
describe('GET /calls/{id}/contact and POST /calls/test/web', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed();
  });

  const get = (path: string, key = ws.key) => t.http.get(path).set(bearer(key));
  const web = (body: Record<string, unknown>, key = ws.key) => t.http.post('/calls/test/web').set(bearer(key)).send(body);

  describe('GET /calls/{id}/contact', () => {
    /** A CSV campaign with one contact, and a call placed to it. */
    async function campaignCall(): Promise<{ callId: string; campaignId: string; contactId: string; phone: string }> {
      const campaign = await createCampaign(t, ws.key);
      const phone = '+14155550107';
      const added = await t.http.post(`/campaigns/${campaign.id}/contacts`).set(bearer(ws.key)).send([{ phone }]);
      expect(added.status).toBeLessThan(300);
      const leads = await get(`/campaigns/${campaign.id}/leads`);
      expect(leads.body.items).toHaveLength(1);
      const contactId = leads.body.items[0].id as string;
      const callId = await recordCall(t, { workspaceId: ws.workspaceId, campaignId: campaign.id, contactId, to: phone });
      return { callId, campaignId: campaign.id, contactId, phone };
    }

    it('answers the contact the call was placed to: id, campaignId, phone, status', async () => {
      const { callId, campaignId, contactId, phone } = await campaignCall();
      const res = await get(`/calls/${callId}/contact`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: contactId, campaignId, phone, status: 'PENDING' });
    });

    it('a test call has no contact → 409 no_contact_for_call, and the call is unchanged', async () => {
      const callId = await recordCall(t, { workspaceId: ws.workspaceId, to: '+14155550107' });
      const before = (await get(`/calls/${callId}`)).body;
      expect(before).toMatchObject({ kind: 'test', contactId: null, campaignId: null });

      expectError(await get(`/calls/${callId}/contact`), 409, 'no_contact_for_call');

      expect((await get(`/calls/${callId}`)).body).toEqual(before);
      expect(await countCalls(t)).toBe(1);
    });

    it('unknown, malformed and foreign call ids → 404 call_not_found (before anything about contacts)', async () => {
      const { callId } = await campaignCall();
      const other = await t.seed();
      const foreignTestCall = await recordCall(t, { workspaceId: other.workspaceId, to: '+14155550108' });
      expectError(await get('/calls/0b0b0b0b-0000-4000-8000-000000000000/contact'), 404, 'call_not_found');
      expectError(await get('/calls/not-a-uuid/contact'), 404, 'call_not_found');
      expectError(await get(`/calls/${callId}/contact`, other.key), 404, 'call_not_found');
      // A foreign test call is a 404, not a 409: its lack of a contact is not revealed.
      expectError(await get(`/calls/${foreignTestCall}/contact`), 404, 'call_not_found');
      expect(await countCalls(t)).toBe(2);
    });
  });

  describe('POST /calls/test/web', () => {
    let agentId: string;
    let ledgerBefore: unknown[];
    beforeEach(async () => {
      await credit(t, ws.workspaceId, 10_000);
      agentId = (await createActiveAgent(t, ws.key)).id;
      ledgerBefore = await ledger(t, ws.workspaceId);
    });

    /** Nothing was placed, recorded or billed. */
    async function expectNothingChanged(): Promise<void> {
      expect(await countCalls(t)).toBe(0);
      expect(await ledger(t, ws.workspaceId)).toEqual(ledgerBefore);
    }

    it('the sandbox makes a session up: an id, a URL and a token derived from them; nothing is placed or billed', async () => {
      const res = await web({ agentId });
      expect(res.status).toBe(201);
      const sessionId = res.body.sessionId as string;
      const token = `sbx_ws_${createHash('sha256').update(`${sessionId}:${agentId}`).digest('hex').slice(0, 32)}`;
      expect(res.body).toEqual({ sessionId, agentId, provider: 'sandbox', url: `https://sandbox.invalid/web-sessions/${sessionId}`, token });
      // Each request opens its own session.
      const again = await web({ agentId });
      expect(again.body.sessionId).not.toBe(sessionId);
      await expectNothingChanged();
    });

    it.each([
      ['twilio', { accountSid: 'AC0000000000000000000000000000000', authToken: 'token' }],
      ['vapi', { apiKey: 'vapi-key', serverSecret: 'vapi-secret' }],
    ])('a workspace whose carrier is %s → 501 web_session_not_supported; nothing changed', async (adapter, credentials) => {
      await t.get(PhoneNumberAdministration).configureCarrier({ workspaceId: ws.workspaceId, carrier: adapter, adapter, baseUrl: 'http://127.0.0.1:9', credentials });
      expectError(await web({ agentId }), 501, 'web_session_not_supported');
      await expectNothingChanged();
    });

    it('another workspace on Twilio does not change the sandbox workspace’s answer (the carrier is the workspace’s own)', async () => {
      const other = await t.seed();
      await t.get(PhoneNumberAdministration).configureCarrier({
        workspaceId: other.workspaceId,
        carrier: 'twilio',
        adapter: 'twilio',
        baseUrl: 'http://127.0.0.1:9',
        credentials: { accountSid: 'AC0000000000000000000000000000000', authToken: 'token' },
      });
      expect((await web({ agentId })).status).toBe(201);
    });

    it('the agent is checked first: unknown or foreign → 404 agent_not_found; no agentId → 400 invalid_body', async () => {
      const other = await t.seed();
      expectError(await web({ agentId: '0b0b0b0b-0000-4000-8000-000000000000' }), 404, 'agent_not_found');
      expectError(await web({ agentId }, other.key), 404, 'agent_not_found');
      expectError(await web({}), 400, 'invalid_body');
      await expectNothingChanged();
    });
  });
});
