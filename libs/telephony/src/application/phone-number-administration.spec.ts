import { FixedClock } from '@outreach/core';
import { InMemoryCarrierAccounts, InMemoryCarrierSettings, InMemoryPhoneNumberRepository, InProcessTelephonyChanges } from '../testing';
import { CarrierVoiceAdapters } from './voice-provider-router';
import { StubWorkspaceAdministration } from '../../../workspaces/src/testing';
import { PhoneNumberAdministration, PhoneNumberDirectory } from './phone-number-administration';
import { codeOf } from '../../../platform/src/testing';

/* The operator's number:add and carrier:set over in-memory numbers and workspaces. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';

describe('PhoneNumberAdministration', () => {
  const now = new Date('2026-02-01T09:00:00.000Z');
  let carriers: InMemoryCarrierSettings;
  let numbers: InMemoryPhoneNumberRepository;
  let admin: PhoneNumberAdministration;
  let changes: InProcessTelephonyChanges;
  let announced: unknown[];

  beforeEach(() => {
    const workspaces = new StubWorkspaceAdministration();
    workspaces.add({ id: W1 });
    workspaces.add({ id: W2 });
    carriers = new InMemoryCarrierSettings();
    numbers = new InMemoryPhoneNumberRepository(carriers);
    changes = new InProcessTelephonyChanges();
    announced = [];
    changes.subscribe((change) => announced.push(change));
    admin = new PhoneNumberAdministration(workspaces, numbers, carriers, new FixedClock(now), new InMemoryCarrierAccounts(), new CarrierVoiceAdapters([]), changes);
  });

  it('adds an E.164 number on the sandbox carrier by default; the view says whether its carrier is enabled', async () => {
    const view = await admin.add({ workspaceId: W1, e164: ' +14155550101 ' });
    expect(view).toEqual({ id: expect.any(String), workspaceId: W1, e164: '+14155550101', carrier: 'sandbox', carrierEnabled: true, inbound: false, createdAt: now.toISOString(), providerNumberId: null, inboundAgentId: null });
    const twilio = await admin.add({ workspaceId: W1, e164: '+14155550102', carrier: ' Twilio ', inbound: true });
    expect(twilio).toMatchObject({ carrier: 'twilio', inbound: true });
    expect((await admin.list(W1)).map((n) => n.e164)).toEqual(['+14155550101', '+14155550102']);
  });

  it('takes only numbers already in E.164: invalid_phone (no status chosen), nothing stored', async () => {
    for (const e164 of ['4155550101', '0014155550101', '+1 415 555 0101', '+0123456789', '+1234567']) {
      expect(await codeOf(admin.add({ workspaceId: W1, e164 }))).toEqual({ code: 'invalid_phone', chosenStatus: undefined });
    }
    expect([...numbers.numbers.values()]).toEqual([]);
  });

  it('refuses a number registered already (anywhere), a bad carrier name and an unknown workspace', async () => {
    await admin.add({ workspaceId: W1, e164: '+14155550101' });
    expect(await codeOf(admin.add({ workspaceId: W2, e164: '+14155550101' }))).toEqual({ code: 'invalid_request', chosenStatus: undefined });
    expect(await codeOf(admin.add({ workspaceId: W1, e164: '+14155550109', carrier: 'no spaces' }))).toEqual({ code: 'invalid_request', chosenStatus: undefined });
    expect(await codeOf(admin.add({ workspaceId: '33333333-3333-4333-8333-333333333333', e164: '+14155550108' }))).toEqual({ code: 'not_found', chosenStatus: undefined });
    expect([...numbers.numbers.values()].map((n) => n.e164)).toEqual(['+14155550101']);
    expect(announced).toEqual([{ workspaceId: W1 }]); // a refused change announces nothing
  });

  it('switches a carrier off and on for one workspace; the directory reports it on each number', async () => {
    const a = await admin.add({ workspaceId: W1, e164: '+14155550101', carrier: 'twilio' });
    const b = await admin.add({ workspaceId: W2, e164: '+14155550102', carrier: 'twilio' });
    expect(await admin.setCarrier({ workspaceId: W1, carrier: 'TWILIO', enabled: false })).toEqual({ workspaceId: W1, carrier: 'twilio', enabled: false });
    const directory = new PhoneNumberDirectory(numbers);
    expect((await directory.findByIds(W1, [a.id, b.id])).map((n) => [n.e164, n.carrierEnabled])).toEqual([['+14155550101', false]]);
    expect((await directory.findByIds(W2, [b.id]))[0].carrierEnabled).toBe(true);
    await admin.setCarrier({ workspaceId: W1, carrier: 'twilio', enabled: true });
    expect((await directory.findByIds(W1, [a.id]))[0].carrierEnabled).toBe(true);
    expect(await directory.findByIds(W1, [])).toEqual([]);
    // Each change announced for its workspace (decisions.md 16.40): every process's caller-id routes drop it.
    expect(announced).toEqual([{ workspaceId: W1 }, { workspaceId: W2 }, { workspaceId: W1 }, { workspaceId: W1 }]);
  });
});
