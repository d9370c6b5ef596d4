import { AppConfig, FixedClock } from '@outreach/core';
import { DoNotCallList } from '@outreach/dnc';
import { PhoneNumberDirectory } from '@outreach/telephony';
import { InMemoryAgentDirectory } from '../../../agents/src/testing';
import { FixedCreditStatus, FixedTariffs, RecordingWalletDebits } from '../../../billing/src/testing';
import { InMemoryDncRepository } from '../../../dnc/src/testing';
import { codeOf, RecordingOutbox, RollbackUnitOfWork } from '../../../platform/src/testing';
import { InMemoryCarrierSettings, InMemoryPhoneNumberRepository, ScriptedVoiceProvider } from '../../../telephony/src/testing';
import { StubWorkspaceAdministration } from '../../../workspaces/src/testing';
import { InMemoryCallQueries, InMemoryCallRepository } from '../testing';
import { analyseCallJob } from './analysis/call-analysis.ports';
import { CallLog } from './call-log';
import { PlaceTestCall, PlaceTestCallInput } from './place-test-call';
import { CallEventIntake } from './call-event-intake';

/* PlaceTestCall with every port faked: the order of its checks, the call it records, the debit and the analysis job. */

const W = 'w1';
const SANDBOX_FROM = '+14155550100';

describe('PlaceTestCall', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');
  let agents: InMemoryAgentDirectory;
  let carriers: InMemoryCarrierSettings;
  let numbers: InMemoryPhoneNumberRepository;
  let workspaces: StubWorkspaceAdministration;
  let dnc: InMemoryDncRepository;
  let credits: FixedCreditStatus;
  let debits: RecordingWalletDebits;
  let voice: ScriptedVoiceProvider;
  let calls: InMemoryCallRepository;
  let outbox: RecordingOutbox;
  let config: { sandboxFromNumber: string | null };
  let useCase: PlaceTestCall;
  let numberId: string;

  beforeEach(async () => {
    const clock = new FixedClock(now);
    const uow = new RollbackUnitOfWork();
    agents = new InMemoryAgentDirectory();
    agents.add({ id: 'a1', workspaceId: W, maxCallDurationSecs: 120 });
    carriers = new InMemoryCarrierSettings();
    numbers = new InMemoryPhoneNumberRepository(carriers);
    numberId = (await numbers.seed({ id: 'n1', workspaceId: W, e164: '+14155550199', carrier: 'twilio' })).id;
    workspaces = new StubWorkspaceAdministration();
    workspaces.add({ id: W });
    dnc = new InMemoryDncRepository();
    credits = new FixedCreditStatus();
    debits = new RecordingWalletDebits();
    voice = new ScriptedVoiceProvider();
    calls = new InMemoryCallRepository();
    outbox = new RecordingOutbox();
    config = { sandboxFromNumber: SANDBOX_FROM };
    useCase = new PlaceTestCall(
      agents,
      new PhoneNumberDirectory(numbers),
      workspaces,
      new DoNotCallList(dnc, clock),
      credits,
      new FixedTariffs({ voiceMinuteMinor: 10, messageMinor: 1 }),
      debits,
      voice,
      new CallLog(calls, uow, clock),
      new InMemoryCallQueries(calls),
      outbox,
      uow,
      clock,
      config as AppConfig,
    );
    // The provider's events reach the call as they do in the app (CallEventIntake subscribes).
    new CallEventIntake(voice.events, new CallLog(calls, uow, clock), useCase).onModuleInit();
  });

  /** The call as stored once the provider's events have been delivered. */
  async function ended(callId: string) {
    await voice.settled();
    return calls.rows.get(callId)!;
  }

  const place = (over: Partial<PlaceTestCallInput> = {}) =>
    useCase.execute({ workspaceId: W, agentId: 'a1', toNumber: '0014155552671', idempotencyKey: 'key-1', ...over });

  it('places the call to the E.164 number from SANDBOX_FROM_NUMBER and answers once the provider accepted it; its ended event records the ending, debits the started minutes, enqueues the analysis', async () => {
    const call = await place({ variables: { name: 'Ada' } });
    expect(call).toMatchObject({ kind: 'test', status: 'DIALING', outcome: null, fromNumber: SANDBOX_FROM, toNumber: '+14155552671' });
    expect(debits.debits).toEqual([]);
    expect(voice.requests).toEqual([
      {
        callId: call.id,
        workspaceId: 'w1',
        from: SANDBOX_FROM,
        to: '+14155552671',
        agentId: 'a1',
        maxDurationSecs: 120,
        variables: {
          name: 'Ada',
          agent_name: 'Agent a1',
          caller_phone: SANDBOX_FROM,
          campaign_name: '',
          contact_name: '',
          contact_phone: '+14155552671',
          current_date: '2026-01-01',
          current_day: 'Thursday',
          current_time: '00:00',
          timezone: 'UTC',
          workspace_name: 'Workspace w1',
        },
      },
    ]);
    expect(await ended(call.id)).toMatchObject({ kind: 'test', status: 'ENDED', outcome: 'completed', durationMs: 61_000, analysisStatus: 'PENDING' });
    expect(debits.debits).toEqual([
      { workspaceId: W, amountMinor: 20, kind: 'test_call', reference: call.id, description: 'Test call to +14155552671 (2 started min)' },
    ]);
    expect(outbox.jobs).toEqual([analyseCallJob(call.id)]);
    expect(calls.rows.get(call.id)).toMatchObject({ idempotencyKey: 'key-1' });
  });

  it('calls from fromPhoneNumberId when given; a number of another workspace → phone_number_not_found, a disabled carrier → phone_number_not_in_workspace', async () => {
    expect((await place({ fromPhoneNumberId: numberId })).fromNumber).toBe('+14155550199');
    expect(await codeOf(place({ idempotencyKey: 'k2', fromPhoneNumberId: 'someone-elses' }))).toEqual({ code: 'phone_number_not_found', chosenStatus: undefined });
    await carriers.setEnabled(W, 'twilio', false);
    expect(await codeOf(place({ idempotencyKey: 'k3', fromPhoneNumberId: numberId }))).toEqual({ code: 'phone_number_not_in_workspace', chosenStatus: undefined });
    expect(voice.requests).toHaveLength(1);
  });

  it('refuses, in order and without dialling or recording: invalid_phone, agent_not_found, agent_archived, agent_not_provisioned (no status chosen)', async () => {
    agents.add({ id: 'old', workspaceId: W, status: 'archived' });
    agents.add({ id: 'new', workspaceId: W, status: 'PROVISIONING' });
    agents.add({ id: 'theirs', workspaceId: 'w2' });
    expect(await codeOf(place({ toNumber: '4155552671', agentId: 'nope' }))).toEqual({ code: 'invalid_phone', chosenStatus: undefined });
    expect(await codeOf(place({ toNumber: 'call me' }))).toEqual({ code: 'invalid_phone', chosenStatus: undefined });
    expect(await codeOf(place({ agentId: 'theirs' }))).toEqual({ code: 'agent_not_found', chosenStatus: undefined });
    expect(await codeOf(place({ agentId: 'old' }))).toEqual({ code: 'agent_archived', chosenStatus: undefined });
    expect(await codeOf(place({ agentId: 'new' }))).toEqual({ code: 'agent_not_provisioned', chosenStatus: undefined });
    expect(voice.requests).toEqual([]);
    expect(calls.rows.size).toBe(0);
  });

  it('refuses for the workspace, the caller id, the do-not-call list and the wallet', async () => {
    config.sandboxFromNumber = null;
    expect(await codeOf(place())).toEqual({ code: 'sandbox_from_number_not_configured', chosenStatus: undefined });
    config.sandboxFromNumber = SANDBOX_FROM;

    await dnc.add({ id: 'd1', workspaceId: W, phone: '+14155552671', reason: null, createdAt: now });
    expect(await codeOf(place())).toEqual({ code: 'do_not_call', chosenStatus: undefined });
    expect((await place({ toNumber: '+14155552672' })).toNumber).toBe('+14155552672');

    credits.broke.add(W);
    expect(await codeOf(place({ toNumber: '+14155552673', idempotencyKey: 'k2' }))).toEqual({ code: 'insufficient_credits', chosenStatus: undefined });

    workspaces.add({ id: W, activityFrozen: true });
    expect(await codeOf(place())).toEqual({ code: 'activity_frozen', chosenStatus: undefined });
    workspaces.add({ id: W, status: 'SUSPENDED' });
    expect(await codeOf(place())).toEqual({ code: 'workspace_not_active', chosenStatus: undefined });
    expect(voice.requests).toHaveLength(1);
  });

  it('one call per idempotency key, ever: a second call with the key → idempotency_key_reused, nothing dialled', async () => {
    await place();
    // The call repository chooses 409 (the port's contract, as the SQL adapter does): the route's 422 default does not apply.
    expect(await codeOf(place({ toNumber: '+14155552672' }))).toEqual({ code: 'idempotency_key_reused', chosenStatus: 409 });
    expect(voice.requests).toHaveLength(1);
  });

  it('an unanswered call is recorded and not billed; no transcript, no analysis job', async () => {
    voice.next = async () => ({ outcome: 'busy', providerDisposition: 'busy', providerCallId: 'p2', answeredAt: null, endedAt: now, durationMs: 0, transcript: null, recordingUrl: null });
    const call = await place();
    expect(await ended(call.id)).toMatchObject({ status: 'ENDED', outcome: 'busy', analysisStatus: 'SKIPPED' });
    expect(debits.debits).toEqual([]);
    expect(outbox.jobs).toEqual([]);
  });

  it('a provider that cannot place the call ends it as a carrier failure (FAILED, not billed) instead of failing the request', async () => {
    voice.accept = () => Promise.reject(new Error('provider down'));
    const call = await place();
    expect(call).toMatchObject({ status: 'FAILED', outcome: 'carrier_failure', providerDisposition: 'provider_error', durationMs: 0 });
    expect(debits.debits).toEqual([]);
  });
});
