import { PhoneNumberAdministration } from '@outreach/telephony';
import { AppError } from '@outreach/platform';
import { createCampaign, expectError, readCampaign } from '../campaigns/campaign-helpers';
import { bearer, Seeded, TestApp } from '../support/test-app';

const UNKNOWN = '3f1c2b8e-58a1-4b3c-9b2e-7d51c1d0e9a4';

describe('phone numbers: workspace numbers, carriers, campaign attachments', () => {
  let t: TestApp;
  let ws: Seeded;
  let numbers: PhoneNumberAdministration;

  beforeAll(async () => {
    t = await TestApp.create();
    numbers = t.get(PhoneNumberAdministration);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed();
  });

  const codeOf = async (work: Promise<unknown>) => {
    try {
      await work;
      return null;
    } catch (error) {
      return error instanceof AppError ? error.code : String(error);
    }
  };

  it('the operator adds numbers; GET /phone-numbers lists the workspace’s own (phone_numbers.view)', async () => {
    const a = await numbers.add({ workspaceId: ws.workspaceId, e164: '+14155550101' });
    const b = await numbers.add({ workspaceId: ws.workspaceId, e164: '+14155550102', carrier: 'Twilio', inbound: true });
    const other = await t.seed();
    await numbers.add({ workspaceId: other.workspaceId, e164: '+14155550103' });

    const res = await t.http.get('/phone-numbers').set(bearer(ws.key));
    expect(res.status).toBe(200);
    expect(res.body.phoneNumbers).toEqual([
      { id: a.id, e164: '+14155550101', carrier: 'sandbox', carrierEnabled: true, inbound: false, createdAt: expect.any(String), inboundAgentId: null },
      { id: b.id, e164: '+14155550102', carrier: 'twilio', carrierEnabled: true, inbound: true, createdAt: expect.any(String), inboundAgentId: null },
    ]);
    await numbers.setCarrier({ workspaceId: ws.workspaceId, carrier: 'twilio', enabled: false });
    const after = await t.http.get('/phone-numbers').set(bearer(ws.key));
    expect(after.body.phoneNumbers.map((n: { carrierEnabled: boolean }) => n.carrierEnabled)).toEqual([true, false]);

    const narrow = await t.addKey(ws.workspaceId, { scopes: ['campaigns.view'] });
    const forbidden = await t.http.get('/phone-numbers').set(bearer(narrow.key));
    expectError(forbidden, 403, 'forbidden');
    expect(forbidden.body.requiredPermission).toBe('phone_numbers.view');
  });

  it('number:add refuses non-E.164 numbers, a number registered already, bad carriers and unknown workspaces', async () => {
    expect(await codeOf(numbers.add({ workspaceId: ws.workspaceId, e164: '4155550101' }))).toBe('invalid_phone');
    await numbers.add({ workspaceId: ws.workspaceId, e164: '+14155550101' });
    expect(await codeOf(numbers.add({ workspaceId: ws.workspaceId, e164: '+14155550101' }))).toBe('invalid_request');
    expect(await codeOf(numbers.add({ workspaceId: ws.workspaceId, e164: '+14155550109', carrier: 'no spaces' }))).toBe('invalid_request');
    expect(await codeOf(numbers.add({ workspaceId: UNKNOWN, e164: '+14155550108' }))).toBe('not_found');
    expect(await codeOf(numbers.setCarrier({ workspaceId: UNKNOWN, carrier: 'sandbox', enabled: false }))).toBe('not_found');
  });

  it('attach: 400 phone_number_not_in_workspace for unknown, foreign or disabled-carrier numbers; idempotent', async () => {
    const c = await createCampaign(t, ws.key);
    const attach = (phoneNumberId: string, campaignId = c.id, key = ws.key) =>
      t.http.post(`/campaigns/${campaignId}/phone-numbers`).set(bearer(key)).send({ phoneNumberId });
    const mine = await numbers.add({ workspaceId: ws.workspaceId, e164: '+14155550101' });
    const other = await t.seed();
    const theirs = await numbers.add({ workspaceId: other.workspaceId, e164: '+14155550102' });
    const disabled = await numbers.add({ workspaceId: ws.workspaceId, e164: '+14155550103', carrier: 'acme' });
    await numbers.setCarrier({ workspaceId: ws.workspaceId, carrier: 'acme', enabled: false });

    expectError(await attach(UNKNOWN), 400, 'phone_number_not_in_workspace');
    expectError(await attach('garbage'), 400, 'phone_number_not_in_workspace');
    expectError(await attach(theirs.id), 400, 'phone_number_not_in_workspace');
    expectError(await attach(disabled.id), 400, 'phone_number_not_in_workspace');
    expectError(await attach(mine.id, UNKNOWN), 404, 'campaign_not_found');
    expectError(await attach(mine.id, c.id, other.key), 404, 'campaign_not_found');
    expectError(await t.http.post(`/campaigns/${c.id}/phone-numbers`).set(bearer(ws.key)).send({}), 400, 'invalid_body');
    expect((await t.http.get(`/campaigns/${c.id}/phone-numbers`).set(bearer(ws.key))).body.phoneNumbers).toEqual([]);

    const res = await attach(mine.id);
    expect(res.status).toBe(200);
    expect(res.body.phoneNumbers.map((n: { id: string }) => n.id)).toEqual([mine.id]);
    expect((await attach(mine.id)).body.phoneNumbers).toHaveLength(1);
  });

  it('detach: 409 campaign_running_no_remove while RUNNING; 404 phone_number_not_found when not attached', async () => {
    const c = await createCampaign(t, ws.key);
    const n = await numbers.add({ workspaceId: ws.workspaceId, e164: '+14155550101' });
    await t.http.post(`/campaigns/${c.id}/phone-numbers`).set(bearer(ws.key)).send({ phoneNumberId: n.id }).expect(200);
    const detach = (numberId: string) => t.http.delete(`/campaigns/${c.id}/phone-numbers/${numberId}`).set(bearer(ws.key));

    await t.dataSource.query(`UPDATE campaigns SET status = 'RUNNING' WHERE id = $1`, [c.id]);
    expectError(await detach(n.id), 409, 'campaign_running_no_remove');
    expect((await t.http.get(`/campaigns/${c.id}/phone-numbers`).set(bearer(ws.key))).body.phoneNumbers).toHaveLength(1);

    await t.dataSource.query(`UPDATE campaigns SET status = 'PAUSED' WHERE id = $1`, [c.id]);
    const res = await detach(n.id);
    expect(res.status).toBe(200);
    expect(res.body.phoneNumbers).toEqual([]);
    expectError(await detach(n.id), 404, 'phone_number_not_found');
    expectError(await detach('garbage'), 404, 'phone_number_not_found');
    expect((await readCampaign(t, ws.key, c.id)).status).toBe('PAUSED');
  });
});
