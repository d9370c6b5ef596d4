import { AppError } from '@outreach/core';
import { InMemoryCarrierAccounts, InMemoryPhoneNumberRepository, InMemoryProviderAgents, InMemoryVoiceCallRoutes, InProcessTelephonyChanges, ScriptedVoiceProvider } from '../testing';
import { CallerIdRoutes } from './caller-id-routes';
import { CarrierAccount, CarrierCallRequest, CarrierVoiceAdapter, VoiceCallRoute } from './carrier-accounts';
import { VoiceCallEvent, VoiceCallStatus } from './voice-provider.port';
import { CarrierVoiceAdapters, VoiceProviderRouter } from './voice-provider-router';

/* The router: the caller id's carrier picks the adapter; the sandbox stays the default. */

const W = '11111111-1111-4111-8111-111111111111';
const CALL = '33333333-3333-4333-8333-333333333333';

class FakeAdapter extends CarrierVoiceAdapter {
  readonly needsNumberSync: boolean;
  readonly needsAgent: boolean;
  readonly placed: CarrierCallRequest[] = [];

  constructor(readonly name: 'twilio' | 'vapi') {
    super();
    this.needsNumberSync = this.needsAgent = name === 'vapi';
  }

  async placeCall(_account: CarrierAccount, request: CarrierCallRequest) {
    this.placed.push(request);
    return { providerCallId: `${this.name}-${this.placed.length}` };
  }

  async lookupCall(_account: CarrierAccount, route: VoiceCallRoute): Promise<VoiceCallStatus> {
    return route.providerCallId ? { state: 'in_progress' } : { state: 'unknown' };
  }

  webhookCall() {
    return { callId: null, providerCallId: null };
  }

  readWebhook(): VoiceCallEvent[] {
    return [];
  }
}

describe('VoiceProviderRouter', () => {
  let numbers: InMemoryPhoneNumberRepository;
  let accounts: InMemoryCarrierAccounts;
  let agents: InMemoryProviderAgents;
  let sandbox: ScriptedVoiceProvider;
  let twilio: FakeAdapter;
  let vapi: FakeAdapter;
  let router: VoiceProviderRouter;
  let changes: InProcessTelephonyChanges;
  const request = (from: string) => ({ callId: CALL, workspaceId: W, from, to: '+14155550107', agentId: 'agent-1', maxDurationSecs: 60, variables: {} });

  beforeEach(async () => {
    numbers = new InMemoryPhoneNumberRepository();
    accounts = new InMemoryCarrierAccounts();
    agents = new InMemoryProviderAgents();
    sandbox = new ScriptedVoiceProvider();
    twilio = new FakeAdapter('twilio');
    vapi = new FakeAdapter('vapi');
    changes = new InProcessTelephonyChanges();
    router = new VoiceProviderRouter(sandbox, new CarrierVoiceAdapters([twilio, vapi]), accounts, new InMemoryVoiceCallRoutes(), numbers, agents, new CallerIdRoutes(numbers, accounts, changes));
    numbers.add({ id: 'n-sbx', workspaceId: W, e164: '+14155550100' });
    numbers.add({ id: 'n-tw', workspaceId: W, e164: '+14155550101', carrier: 'twilio' });
    numbers.add({ id: 'n-vapi', workspaceId: W, e164: '+14155550102', carrier: 'vapi' });
    await accounts.configure({ workspaceId: W, carrier: 'twilio', adapter: 'twilio', baseUrl: null, credentials: { accountSid: 'AC1', authToken: 't' } });
    await accounts.configure({ workspaceId: W, carrier: 'vapi', adapter: 'vapi', baseUrl: null, credentials: { apiKey: 'k', serverSecret: 's' } });
  });

  it('a sandbox number, a carrier without an adapter and a caller id that is not the workspace\'s go to the sandbox', async () => {
    await router.placeCall(request('+14155550100'));
    await router.placeCall({ ...request('+19995550100'), callId: '44444444-4444-4444-8444-444444444444' });
    expect(sandbox.requests).toHaveLength(2);
    expect(twilio.placed).toHaveLength(0);
    expect(await router.lookupCall('55555555-5555-4555-8555-555555555555')).toEqual({ state: 'unknown' });
  });

  it('a web session goes to the workspace\'s first enabled real carrier (which refuses: 501), else to the sandbox', async () => {
    const session = { sessionId: 's-1', provider: 'sandbox', url: 'https://sandbox.invalid/web-sessions/s-1', token: 't' };
    const toSandbox = jest.spyOn(sandbox, 'startWebSession').mockResolvedValue(session);
    const onCarrier = router.startWebSession({ sessionId: 's-1', workspaceId: W, agentId: 'agent-1' });
    await expect(onCarrier).rejects.toMatchObject({ code: 'web_session_not_supported', message: expect.stringContaining('twilio') });
    expect(toSandbox).not.toHaveBeenCalled();
    const W2 = '22222222-2222-4222-8222-222222222222';
    expect(await router.startWebSession({ sessionId: 's-1', workspaceId: W2, agentId: 'agent-1' })).toEqual(session);
    expect(toSandbox).toHaveBeenCalledTimes(1);
  });

  it('a Twilio number is dialled through Twilio once: placing the call id again answers the first call', async () => {
    expect(await router.placeCall(request('+14155550101'))).toEqual({ providerCallId: 'twilio-1' });
    expect(await router.placeCall(request('+14155550101'))).toEqual({ providerCallId: 'twilio-1' });
    expect(twilio.placed).toHaveLength(1);
    expect(sandbox.requests).toHaveLength(0);
    expect(await router.lookupCall(CALL)).toEqual({ state: 'in_progress' });
  });

  it('a disabled carrier → phone_number_not_in_workspace; Vapi without the number synced → phone_number_not_synced, without the agent → agent_not_provisioned', async () => {
    accounts.accounts.get(`${W}/twilio`)!.enabled = false;
    await expect(router.placeCall(request('+14155550101'))).rejects.toMatchObject({ code: 'phone_number_not_in_workspace' });
    await expect(router.placeCall(request('+14155550102'))).rejects.toMatchObject({ code: 'phone_number_not_synced' });
    await numbers.setProviderNumberId(W, 'n-vapi', 'pn_1');
    await changes.announce({ workspaceId: W }); // as PhoneNumberAdministration.syncNumber does
    await expect(router.placeCall(request('+14155550102'))).rejects.toBeInstanceOf(AppError);
    await expect(router.placeCall(request('+14155550102'))).rejects.toMatchObject({ code: 'agent_not_provisioned' });
    await agents.save(W, 'vapi', 'agent-1', 'asst_1');
    await router.placeCall(request('+14155550102'));
    expect(vapi.placed).toEqual([expect.objectContaining({ providerNumberId: 'pn_1', providerAgentId: 'asst_1', callId: CALL })]);
  });

  it('reads a caller id\'s number and carrier once, not before every call; an announced change applies to the next call (decisions.md 16.40)', async () => {
    const byE164 = jest.spyOn(numbers, 'findByE164');
    const byCarrier = jest.spyOn(accounts, 'find');
    for (let i = 0; i < 3; i++) await router.placeCall({ ...request('+14155550101'), callId: `6666666${i}-6666-4666-8666-666666666666` });
    expect(twilio.placed).toHaveLength(3);
    expect([byE164.mock.calls.length, byCarrier.mock.calls.length]).toEqual([1, 1]);

    accounts.accounts.set(`${W}/twilio`, { ...accounts.accounts.get(`${W}/twilio`)!, enabled: false });
    await changes.announce({ workspaceId: '22222222-2222-4222-8222-222222222222' }); // another workspace's change: this one's stays
    await router.placeCall({ ...request('+14155550101'), callId: '77777777-7777-4777-8777-777777777777' });
    expect(twilio.placed).toHaveLength(4);
    await changes.announce({ workspaceId: W });
    await expect(router.placeCall({ ...request('+14155550101'), callId: '88888888-8888-4888-8888-888888888888' })).rejects.toMatchObject({ code: 'phone_number_not_in_workspace' });
    expect([byE164.mock.calls.length, byCarrier.mock.calls.length]).toEqual([2, 2]);
    expect(twilio.placed).toHaveLength(4);
  });
});
