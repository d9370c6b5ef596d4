import { FixedClock } from '@outreach/core';
import { Clock } from '@outreach/platform';
import { PhoneNumberAdministration, SandboxCallRecord, SandboxCallRecords } from '@outreach/telephony';
import { createActiveAgent } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { attachNumber, createCampaign, credit, randomE164 } from '../campaigns/campaign-helpers';
import { dispatcher, EngineProbe, startWorker, waitFor } from '../engine/engine-harness';

/*
 * What the voice provider receives for a call (issue 22, items 4-5; decisions.md 16.21, 16.22): every
 * system variable with its value (dates and times in the campaign's timezone), the contact's fields
 * and the campaign's variable mapping; with transliterateCalleeNames the callee name in Latin
 * letters while the contact keeps the original. Read from the sandbox provider's own call log.
 */
const WEDNESDAY_0515_UTC = new Date('2026-11-25T05:15:00Z'); // 10:45 in Kolkata; Tuesday 21:15 in Los Angeles

describe('variables the voice provider receives', () => {
  const clock = new FixedClock(WEDNESDAY_0515_UTC);
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;
  let records: SandboxCallRecords;

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock) });
    worker = await startWorker({ clock });
    records = t.get(SandboxCallRecords);
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed({ name: 'Acme Outreach' });
    await credit(t, ws.workspaceId, 1_000_000);
  });

  /** Runs a campaign over the contacts and answers what the provider received, by number dialled. */
  async function received(settings: Record<string, unknown>, contacts: Array<Record<string, unknown>>): Promise<Map<string, SandboxCallRecord>> {
    const agent = await createActiveAgent(t, ws.key, { name: 'Ava' });
    const campaign = await createCampaign(t, ws.key, { agentId: agent.id, dailyWindowStart: '00:00', dailyWindowEnd: '00:00', recipientHours: 'off', ...settings });
    const callerId = randomE164();
    await attachNumber(t, ws.key, ws.workspaceId, campaign.id, callerId);
    const added = await t.http.post(`/campaigns/${campaign.id}/contacts`).set(bearer(ws.key)).send(contacts);
    expect(added.status).toBe(201);
    const started = await t.http.post(`/campaigns/${campaign.id}/start`).set(bearer(ws.key)).send({});
    expect(started.status).toBe(200);
    const probe = new EngineProbe(t);
    await dispatcher(worker)(campaign.id);
    const calls = await waitFor('every call to end', () => probe.calls(campaign.id), (rows) => rows.length === contacts.length && rows.every((c) => c.status === 'ENDED' || c.status === 'FAILED'));
    const byNumber = new Map<string, SandboxCallRecord>();
    for (const call of calls) {
      const record = await records.get(call.id);
      expect(record).not.toBeNull();
      expect(record!.from).toBe(callerId);
      byNumber.set(call.to_number, record!);
    }
    return byNumber;
  }

  it('a campaign call: every system variable (times in the campaign timezone), the contact fields and the variable mapping', async () => {
    const got = await received(
      { name: 'Winter renewals', timezone: 'Asia/Kolkata', variableMap: { plan: 'tier' } },
      [{ phone: '+14155550107', name: 'Mira Patel', fields: { tier: 'gold', city: 'Pune', contact_name: 'spoofed' } }],
    );
    const record = got.get('+14155550107')!;
    expect(record.variables).toEqual({
      tier: 'gold',
      city: 'Pune',
      plan: 'gold',
      agent_name: 'Ava',
      caller_phone: record.from,
      campaign_name: 'Winter renewals',
      contact_name: 'Mira Patel', // the service's value: a field of the same name does not override it
      contact_phone: '+14155550107',
      current_date: '2026-11-25',
      current_day: 'Wednesday',
      current_time: '10:45',
      timezone: 'Asia/Kolkata',
      workspace_name: 'Acme Outreach',
    });
  });

  it('the campaign timezone decides the local date: 05:15 UTC is still Tuesday evening in Los Angeles', async () => {
    const got = await received({ name: 'West coast', timezone: 'America/Los_Angeles' }, [{ phone: '+14155550117', name: 'Sam' }]);
    expect(got.get('+14155550117')!.variables).toMatchObject({ current_date: '2026-11-24', current_day: 'Tuesday', current_time: '21:15', timezone: 'America/Los_Angeles' });
  });

  const NAMES: Array<[string, string, string]> = [
    ['Cyrillic', 'Дмитрий Иванов', 'Dmitriy Ivanov'],
    ['Greek', 'Γιώργος Παπαδόπουλος', 'Giorgos Papadopoylos'],
    ['Arabic', 'محمد علي', 'mHmd aaly'],
    ['Devanagari', 'राहुल शर्मा', 'raahul shrmaa'],
    ['Chinese', '王小明', 'Wang Xiao Ming'],
    ['Latin with accents (unchanged)', 'José Müller', 'José Müller'],
  ];

  it('transliterateCalleeNames: the agent is given the name in Latin letters; the contact keeps the original', async () => {
    const contacts = NAMES.map(([, name], i) => ({ phone: `+1415555012${i}`, name }));
    const got = await received({ name: 'Transliterated', timezone: 'UTC', transliterateCalleeNames: true }, contacts);
    const given = NAMES.map(([script], i) => [script, got.get(`+1415555012${i}`)!.variables.contact_name]);
    expect(given).toEqual(NAMES.map(([script, , latin]) => [script, latin]));

    const stored = await t.dataSource.query(`SELECT name FROM campaign_contacts WHERE workspace_id = $1 ORDER BY seq`, [ws.workspaceId]);
    expect(stored.map((c: { name: string }) => c.name)).toEqual(NAMES.map(([, name]) => name));
  });

  it('transliterateCalleeNames off (the default): the name is given as uploaded', async () => {
    const contacts = NAMES.map(([, name], i) => ({ phone: `+1415555013${i}`, name }));
    const got = await received({ name: 'As uploaded', timezone: 'UTC' }, contacts);
    expect(NAMES.map((_, i) => got.get(`+1415555013${i}`)!.variables.contact_name)).toEqual(NAMES.map(([, name]) => name));
  });

  it('a test call: the system variables join the caller variables (no campaign: campaign_name empty, times in UTC)', async () => {
    const agent = await createActiveAgent(t, ws.key, { name: 'Ava' });
    const from = await t.get(PhoneNumberAdministration).add({ workspaceId: ws.workspaceId, e164: '+14155550142' });
    const res = await t.http
      .post('/calls/test')
      .set(bearer(ws.key))
      .set('Idempotency-Key', 'variables-1')
      .send({ agentId: agent.id, toNumber: '+14155550107', fromPhoneNumberId: from.id, variables: { contact_name: 'Ana', plan: 'trial', workspace_name: 'spoofed' } });
    expect(res.status).toBe(201);
    const record = await records.get(res.body.id);
    expect(record!.variables).toEqual({
      plan: 'trial',
      agent_name: 'Ava',
      caller_phone: '+14155550142',
      campaign_name: '',
      contact_name: 'Ana',
      contact_phone: '+14155550107',
      current_date: '2026-11-25',
      current_day: 'Wednesday',
      current_time: '05:15',
      timezone: 'UTC',
      workspace_name: 'Acme Outreach',
    });
  });
});
