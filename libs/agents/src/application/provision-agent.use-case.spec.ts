import { Logger } from '@nestjs/common';
import { InMemoryAgentRepository, RecordingVoiceProvider } from '../testing';
import { Agent } from '../domain/agent.aggregate';
import { FixedClock, RollbackUnitOfWork } from '../../../platform/src/testing';
import { ProvisionAgent } from './provision-agent.use-case';

/* ProvisionAgent (worker job): PROVISIONING → ACTIVE at the provider; replays and races change nothing. */

const W1 = '11111111-1111-4111-8111-111111111111';
const A1 = 'a0000000-0000-4000-8000-000000000001';
const UNKNOWN = 'a0000000-0000-4000-8000-0000000000ff';
const T0 = new Date('2026-03-01T09:00:00Z');

describe('ProvisionAgent', () => {
  beforeAll(() => Logger.overrideLogger(false));

  let agents: InMemoryAgentRepository;
  let provider: RecordingVoiceProvider;
  let clock: FixedClock;
  let uow: RollbackUnitOfWork;
  let provision: ProvisionAgent;

  beforeEach(() => {
    agents = new InMemoryAgentRepository();
    provider = new RecordingVoiceProvider();
    clock = new FixedClock(T0);
    uow = new RollbackUnitOfWork();
    provision = new ProvisionAgent(agents, provider, uow, clock);
  });

  it("asks the provider once and stores the agent ACTIVE with the provider's id", async () => {
    await agents.seed({ id: A1, workspaceId: W1, fields: { name: 'Maya', voice: 'aria' } });
    clock.advance(2000);
    await provision.execute(A1);

    expect(provider.requests).toEqual([{ id: A1, workspaceId: W1, name: 'Maya', voice: 'aria' }]);
    expect(agents.rows.get(A1)).toMatchObject({ status: 'ACTIVE', providerAgentId: `provider-${A1}`, provisionedAt: new Date('2026-03-01T09:00:02Z') });
  });

  it('a replayed job for an ACTIVE agent asks nobody and changes nothing', async () => {
    await agents.seed({ id: A1, workspaceId: W1, status: 'ACTIVE' });
    const before = structuredClone(agents.rows.get(A1));
    await provision.execute(A1);
    expect(provider.requests).toHaveLength(0);
    expect(agents.rows.get(A1)).toEqual(before);
  });

  it('an archived, deleted, unknown or malformed agent is left alone', async () => {
    await agents.seed({ id: A1, workspaceId: W1, status: 'archived' });
    await provision.execute(A1);
    await provision.execute(UNKNOWN);
    await provision.execute('not-a-uuid');
    expect(provider.requests).toHaveLength(0);
    expect(agents.rows.get(A1)!.status).toBe('archived');
  });

  it('an agent archived while the provider answered stays archived', async () => {
    await agents.seed({ id: A1, workspaceId: W1 });
    provider.beforeReply = async () => {
      const agent = (await agents.findAnyById(A1)) as Agent;
      agent.archive(clock.now());
      await agents.update(agent);
    };
    await provision.execute(A1);
    expect(provider.requests).toHaveLength(1);
    expect(agents.rows.get(A1)).toMatchObject({ status: 'archived', providerAgentId: null, provisionedAt: null });
  });

  it('a provider failure rejects (the job retries) and leaves the agent PROVISIONING', async () => {
    await agents.seed({ id: A1, workspaceId: W1 });
    provider.beforeReply = async () => {
      throw new Error('provider down');
    };
    await expect(provision.execute(A1)).rejects.toThrow('provider down');
    expect(agents.rows.get(A1)).toMatchObject({ status: 'PROVISIONING', providerAgentId: null });
    expect(uow.runs).toBe(0);
  });
});
