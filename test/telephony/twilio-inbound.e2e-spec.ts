import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { PhoneNumberAdministration, twilioSignature } from '@outreach/telephony';
import twilioFixtures from '../fixtures/voice-providers/twilio.json';
import { ledger } from '../calls/call-fixtures';
import { createCampaign, credit, expectError } from '../campaigns/campaign-helpers';
import { startWorker, waitFor } from '../engine/engine-harness';
import { createActiveAgent } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';

/*
 * Inbound calls on a Twilio carrier (decisions.md 36.3), with the request shapes Twilio documents
 * (test/fixtures/voice-providers/twilio.json): the number's Voice URL request, signed with
 * X-Twilio-Signature over PUBLIC_BASE_URL + path, is answered with TwiML; the call's status callback
 * ends it, and it is settled and billed like any call of the campaign. A bad signature is refused
 * before anything is written; a number without a live campaign hears a polite goodbye.
 */
const PUBLIC_BASE_URL = 'https://outreach.example.test';
const ACCOUNT_SID = twilioFixtures.inboundVoiceRequest.AccountSid;
const AUTH_TOKEN = 'twilio-auth-token-inbound';
const OUR_NUMBER = twilioFixtures.inboundVoiceRequest.To;
const CALLER = twilioFixtures.inboundVoiceRequest.From;

jest.setTimeout(120_000);

type Form = Record<string, string>;

describe('Twilio inbound calls', () => {
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;

  beforeAll(async () => {
    process.env.PUBLIC_BASE_URL = PUBLIC_BASE_URL;
    try {
      t = await TestApp.create();
      worker = await startWorker();
    } finally {
      delete process.env.PUBLIC_BASE_URL;
    }
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed({ features: ['inbound'] });
    await credit(t, ws.workspaceId, 10_000);
    const admin = t.get(PhoneNumberAdministration);
    await admin.configureCarrier({ workspaceId: ws.workspaceId, carrier: 'twilio-main', adapter: 'twilio', credentials: { accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN } });
  });

  const fixture = (shape: Form & { _note?: string }, overrides: Form = {}): Form => {
    const { _note, ...form } = shape;
    void _note;
    return { ...form, ...overrides };
  };

  // TwiML answers are text/xml: the OpenAPI check of t.http validates one media type per status (the
  // validator reads the first, JSON), so these requests go straight to the server; the route's JSON
  // answers are checked by the other suites.
  const post = (form: Form, token = AUTH_TOKEN) => {
    const params = new URLSearchParams(form);
    return request(t.app.getHttpServer())
      .post('/webhooks/voice/twilio')
      .set('content-type', 'application/x-www-form-urlencoded')
      .set('x-twilio-signature', twilioSignature(token, `${PUBLIC_BASE_URL}/webhooks/voice/twilio`, params))
      .send(params.toString());
  };

  async function liveInbound(): Promise<{ campaignId: string }> {
    const agent = await createActiveAgent(t, ws.key, { agentType: 'INBOUND' });
    const number = await t.get(PhoneNumberAdministration).add({ workspaceId: ws.workspaceId, e164: OUR_NUMBER, carrier: 'twilio-main', inbound: true });
    expect((await t.http.put(`/phone-numbers/${number.id}/inbound-agent`).set(bearer(ws.key)).send({ agentId: agent.id })).status).toBe(200);
    const campaign = await createCampaign(t, ws.key, { source: 'INBOUND', agentId: agent.id });
    expect((await t.http.post(`/campaigns/${campaign.id}/start`).set(bearer(ws.key)).send({})).status).toBe(200);
    return { campaignId: campaign.id };
  }

  const inboundCalls = (): Promise<Array<Record<string, unknown>>> =>
    t.dataSource.query(`SELECT id, kind, status, outcome, provider_disposition, campaign_id, duration_ms, from_number FROM calls WHERE kind = 'inbound'`);

  it("the Voice URL request is answered with TwiML, the status callback ends the call: settled and billed", async () => {
    const { campaignId } = await liveInbound();
    // A CallSid of its own: a provider event id is unique for good, and a fixed one would meet an earlier run's job in Redis.
    const CallSid = `CA${randomUUID().replace(/-/g, '')}`;
    const res = await post(fixture(twilioFixtures.inboundVoiceRequest, { CallSid }));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/xml/);
    expect(res.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><Response><Say>Hello, this is Agent [a-z0-9]+\.<\/Say><Pause length="1"\/><\/Response>$/);
    const [call] = await inboundCalls();
    expect(call).toMatchObject({ campaign_id: campaignId, from_number: CALLER });

    const ended = await post(fixture(twilioFixtures.inboundStatusCallback, { CallSid }));
    expect({ status: ended.status, body: ended.body }).toEqual({ status: 200, body: { received: 1 } });
    await waitFor('call ended', inboundCalls, (rows) => rows[0]?.status === 'ENDED');
    expect((await inboundCalls())[0]).toMatchObject({ outcome: 'completed', duration_ms: 75_000 });
    await waitFor('contact settled', () => t.dataSource.query(`SELECT status FROM campaign_contacts WHERE campaign_id = $1`, [campaignId]), (rows: Array<{ status: string }>) => rows[0]?.status === 'COMPLETED');
    expect((await ledger(t, ws.workspaceId)).filter((e) => e.kind === 'debit')).toHaveLength(1);
    expect((await t.http.get(`/v1/campaigns/${campaignId}`).set(bearer(ws.key))).body.receivedCalls).toBe(1);
  });

  it('a bad X-Twilio-Signature, another AccountSid or a number not on Twilio → 401 unauthorized, nothing written', async () => {
    await liveInbound();
    expectError(await post(fixture(twilioFixtures.inboundVoiceRequest), 'not-the-token'), 401, 'unauthorized');
    expectError(await post(fixture(twilioFixtures.inboundVoiceRequest, { AccountSid: 'AC99999999999999999999999999999999' })), 401, 'unauthorized');
    expectError(await post(fixture(twilioFixtures.inboundVoiceRequest, { To: '+14155550124', Called: '+14155550124' })), 401, 'unauthorized');
    expect(await inboundCalls()).toHaveLength(0);
  });

  it('a number without a live campaign: a polite TwiML goodbye, the call recorded, not billed', async () => {
    await t.get(PhoneNumberAdministration).add({ workspaceId: ws.workspaceId, e164: OUR_NUMBER, carrier: 'twilio-main', inbound: true });
    const res = await post(fixture(twilioFixtures.inboundVoiceRequest));
    expect(res.status).toBe(200);
    expect(res.text).toContain('<Say>Sorry, nobody can take your call right now. Please try again later. Goodbye.</Say><Hangup/>');
    expect(await inboundCalls()).toEqual([expect.objectContaining({ status: 'ENDED', outcome: 'no_answer', provider_disposition: 'declined_no_live_campaign', campaign_id: null })]);
    expect((await ledger(t, ws.workspaceId)).filter((e) => e.kind === 'debit')).toHaveLength(0);
  });
});
