import { FixedClock, jobsRollback, RecordingOutbox, RollbackUnitOfWork } from '../../../platform/src/testing';
import { CampaignDraft } from '../domain/campaign.aggregate';
import { CampaignStatus } from '../domain/campaign-state-machine';
import { aCampaign, InMemoryCampaignExecutionRepository, InMemoryCampaignPhoneNumbers, InMemoryCampaignRepository, InMemoryContactRepository } from '../testing';
import { CampaignExecution } from './campaign-execution.service';

/* CampaignExecution (the engine's door into campaigns) over in-memory fakes: its automatic transitions and the clock. */

const NOW = new Date('2026-11-18T10:00:00Z');
const WS = 'ws-1';
const CID = 'campaign-1';

function setup() {
  const clock = new FixedClock(NOW);
  const contacts = new InMemoryContactRepository(() => clock.now());
  const campaigns = new InMemoryCampaignRepository(contacts);
  const attached = new InMemoryCampaignPhoneNumbers();
  const repo = new InMemoryCampaignExecutionRepository(campaigns, contacts);
  const outbox = new RecordingOutbox();
  const uow = new RollbackUnitOfWork([campaigns, contacts, attached, repo, jobsRollback(outbox)]);
  const execution = new CampaignExecution(repo, campaigns, attached, uow, clock, outbox, contacts);
  const add = (id: string, options: { status?: CampaignStatus; draft?: Partial<CampaignDraft>; workspaceId?: string } = {}) =>
    campaigns.seed(aCampaign({ workspaceId: options.workspaceId ?? WS, id, status: options.status ?? 'RUNNING', draft: options.draft, now: NOW }));
  return { clock, contacts, campaigns, attached, repo, uow, execution, add };
}

describe('CampaignExecution', () => {
  let s: ReturnType<typeof setup>;
  beforeEach(() => {
    s = setup();
  });

  it('reads a campaign whole (null when unknown) and its numbers in attach order', async () => {
    s.add(CID, { draft: { timezone: 'Europe/Paris', dailyDialCap: 50 } });
    await s.attached.attach(CID, 'n-2');
    await s.attached.attach(CID, 'n-1');

    expect(await s.execution.campaign(CID)).toMatchObject({ id: CID, workspaceId: WS, status: 'RUNNING', timezone: 'Europe/Paris', settings: { dailyDialCap: 50 } });
    expect(await s.execution.campaign('missing')).toBeNull();
    expect(await s.execution.phoneNumberIds(CID)).toEqual(['n-2', 'n-1']);
  });

  describe('completeIfDone', () => {
    it('completes a RUNNING CSV campaign whose contacts are all final, under its row lock', async () => {
      s.add(CID);
      s.contacts.seed(WS, CID, { phone: '+14155550101', status: 'COMPLETED' });
      s.contacts.seed(WS, CID, { phone: '+14155550102', status: 'DO_NOT_CALL' });
      s.clock.advance(60_000);

      expect(await s.execution.completeIfDone(CID)).toBe(true);
      expect(s.campaigns.stored(CID)).toMatchObject({ status: 'COMPLETED', endedAt: new Date(NOW.getTime() + 60_000) });
      expect(s.campaigns.locked).toEqual([CID]);
    });

    it.each([
      ['PENDING', {}],
      ['IN_PROGRESS', { attempts: 1, attemptSeq: 1 }],
      ['RETRY_SCHEDULED', { attempts: 1, attemptSeq: 1, nextAttemptAt: '2026-11-18T12:00:00.000Z' }],
    ] as const)('leaves a CSV campaign RUNNING while a contact is %s', async (status, extra) => {
      s.add(CID);
      s.contacts.seed(WS, CID, { phone: '+14155550101', status: 'COMPLETED' });
      s.contacts.seed(WS, CID, { phone: '+14155550102', status, ...extra });

      expect(await s.execution.completeIfDone(CID)).toBe(false);
      expect(s.campaigns.stored(CID)).toMatchObject({ status: 'RUNNING', endedAt: null });
    });

    it('never completes an API campaign for running out of contacts (it waits for leads), but does at its scheduled end', async () => {
      s.add(CID, { draft: { source: 'API' } });
      expect(await s.execution.completeIfDone(CID)).toBe(false);
      expect(s.campaigns.stored(CID)!.status).toBe('RUNNING');

      s.add('ends', { draft: { source: 'API', scheduledEndAt: new Date('2026-11-18T10:30:00Z') } });
      s.contacts.seed(WS, 'ends', { phone: '+14155550101' });
      expect(await s.execution.completeIfDone('ends')).toBe(false);
      s.clock.set(new Date('2026-11-18T10:30:00Z'));
      expect(await s.execution.completeIfDone('ends')).toBe(true);
      expect(s.campaigns.stored('ends')).toMatchObject({ status: 'COMPLETED', endedAt: new Date('2026-11-18T10:30:00Z') });
    });

    it('does nothing to a campaign that is not RUNNING (or unknown)', async () => {
      s.add(CID, { status: 'PAUSED' });
      expect(await s.execution.completeIfDone(CID)).toBe(false);
      expect(await s.execution.completeIfDone('missing')).toBe(false);
      expect(s.campaigns.stored(CID)!.status).toBe('PAUSED');
      expect(s.campaigns.locked).toEqual([]);
    });
  });

  describe('exhaustCredit', () => {
    it('moves every RUNNING campaign of the workspace to CREDIT_EXHAUSTED and returns their ids; others stay', async () => {
      s.add('a');
      s.add('b');
      s.add('paused', { status: 'PAUSED' });
      s.add('elsewhere', { workspaceId: 'ws-2' });

      expect((await s.execution.exhaustCredit(WS)).sort()).toEqual(['a', 'b']);
      expect(['a', 'b', 'paused', 'elsewhere'].map((id) => s.campaigns.stored(id)!.status)).toEqual(['CREDIT_EXHAUSTED', 'CREDIT_EXHAUSTED', 'PAUSED', 'RUNNING']);
      expect(s.campaigns.stored('a')!.updatedAt).toEqual(NOW);
      expect(await s.execution.runningCampaignIds()).toEqual(['elsewhere']);
    });

    it('re-checks each campaign under its row lock: one paused since the search is left alone', async () => {
      s.add('a');
      s.add('paused', { status: 'PAUSED' });
      s.repo.runningCampaignIds = async () => ['a', 'paused'];

      expect(await s.execution.exhaustCredit(WS)).toEqual(['a']);
      expect(s.campaigns.stored('paused')!.status).toBe('PAUSED');
      expect(s.campaigns.locked).toEqual(['a', 'paused']);
    });

    it('with nothing RUNNING returns []', async () => {
      s.add(CID, { status: 'CREDIT_EXHAUSTED' });
      expect(await s.execution.exhaustCredit(WS)).toEqual([]);
    });
  });

  it('release gives an attempt back at the clock: a first attempt to PENDING, a later one due again now', async () => {
    s.add(CID);
    const first = s.contacts.seed(WS, CID, { phone: '+14155550101', status: 'IN_PROGRESS', attempts: 1, attemptSeq: 4 });
    const later = s.contacts.seed(WS, CID, { phone: '+14155550102', status: 'IN_PROGRESS', attempts: 2, attemptSeq: 2 });
    s.clock.advance(5_000);

    await s.execution.release(first.id, 4);
    await s.execution.release(later.id, 2);
    await s.execution.release(later.id, 1); // stale: nothing more changes

    expect(s.contacts.stored(first.id)).toMatchObject({ status: 'PENDING', attempts: 0, nextAttemptAt: null });
    expect(s.contacts.stored(later.id)).toMatchObject({ status: 'RETRY_SCHEDULED', attempts: 1, nextAttemptAt: new Date(NOW.getTime() + 5_000).toISOString() });
  });

  it('recordOutcome applies only to the attempt in flight', async () => {
    s.add(CID);
    const c = s.contacts.seed(WS, CID, { phone: '+14155550101', status: 'IN_PROGRESS', attempts: 1, attemptSeq: 3 });
    const update = { status: 'COMPLETED' as const, nextAttemptAt: null, lastOutcome: 'completed', lastAttemptAt: NOW, incompleteRetry: false, nextNumber: false, connectedPhone: null };

    expect(await s.execution.recordOutcome(c.id, 2, update)).toBe(false);
    expect(s.contacts.stored(c.id)!.status).toBe('IN_PROGRESS');
    expect(await s.execution.recordOutcome(c.id, 3, update)).toBe(true);
    expect(await s.execution.recordOutcome(c.id, 3, update)).toBe(false);
    expect(s.contacts.stored(c.id)).toMatchObject({ status: 'COMPLETED', lastOutcome: 'completed', lastAttemptAt: NOW.toISOString() });
  });
});
