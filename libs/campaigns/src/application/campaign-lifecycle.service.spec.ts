import { InMemoryAgentDirectory } from '../../../agents/src/testing';
import { FixedWalletBalance } from '../../../billing/src/testing';
import { FixedClock, jobsRollback, RecordingOutbox, RollbackUnitOfWork } from '../../../platform/src/testing';
import { inMemoryPhoneNumberDirectory } from '../../../telephony/src/testing';
import { StubWorkspaceAdministration } from '../../../workspaces/src/testing';
import { CampaignDraft } from '../domain/campaign.aggregate';
import { CampaignStatus } from '../domain/campaign-state-machine';
import {
  aCampaign,
  InMemoryCampaignPhoneNumbers,
  InMemoryCampaignRepository,
  InMemoryCampaignTypeRepository,
  InMemoryContactRepository,
  InMemoryWorkflowDirectory,
  StubEmailReadiness,
  StubWhatsappReadiness,
  inMemoryInboundCampaigns,
} from '../testing';
import { CampaignJob, CampaignQueue } from './campaign-jobs';
import { CampaignLifecycle } from './campaign-lifecycle.service';
import { CampaignTypesService } from './campaign-types.service';
import { CampaignViews } from './campaign-views';

const NOW = new Date('2026-11-21T10:00:00Z');
const WS = 'ws-1';
const OTHER_WS = 'ws-2';
const CID = 'campaign-1';
const AGENT = 'agent-1';
const NUMBER = 'number-1';
const WORKFLOW = '5b3f1c1e-8d2a-4c55-9a0e-2f1b7f7d0a01';

/**
 * A DRAFT VOICE/CSV campaign that passes every start check: ACTIVE workspace (concurrency 10)
 * with credit, an ACTIVE agent, one number on an enabled carrier, one PENDING contact.
 */
function setup(draft: Partial<CampaignDraft> = {}, status: CampaignStatus = 'DRAFT') {
  const clock = new FixedClock(NOW);
  const contacts = new InMemoryContactRepository(() => clock.now());
  const campaigns = new InMemoryCampaignRepository(contacts);
  const attached = new InMemoryCampaignPhoneNumbers();
  const agents = new InMemoryAgentDirectory();
  const workspaces = new StubWorkspaceAdministration();
  const wallet = new FixedWalletBalance();
  const phones = inMemoryPhoneNumberDirectory();
  const whatsapp = new StubWhatsappReadiness();
  const email = new StubEmailReadiness();
  const workflows = new InMemoryWorkflowDirectory();
  const outbox = new RecordingOutbox();
  const uow = new RollbackUnitOfWork([campaigns, contacts, attached, jobsRollback(outbox)]);
  const views = new CampaignViews(campaigns, new CampaignTypesService(new InMemoryCampaignTypeRepository(), clock), agents);
  const lifecycle = new CampaignLifecycle(
    campaigns,
    contacts,
    attached,
    views,
    workspaces,
    wallet,
    agents,
    phones.directory,
    whatsapp,
    email,
    workflows,
    outbox,
    uow,
    clock,
    inMemoryInboundCampaigns({ campaigns, contacts, attached, numbers: phones.directory, agents }).inbound,
  );

  workspaces.add({ id: WS, concurrency: 10 });
  wallet.balances.set(WS, 5_000);
  agents.add({ id: AGENT, workspaceId: WS, name: 'Ava' });
  phones.numbers.add({ id: NUMBER, workspaceId: WS, e164: '+14155550100' });
  void attached.attach(CID, NUMBER);
  campaigns.seed(aCampaign({ workspaceId: WS, id: CID, draft: { agentId: AGENT, ...draft }, status }));
  contacts.seed(WS, CID, { phone: '+14155550101' });

  const dispatchJobs = () => outbox.named(CampaignQueue.Campaigns, CampaignJob.Dispatch);
  return { clock, contacts, campaigns, attached, agents, workspaces, wallet, phones, whatsapp, email, workflows, outbox, uow, lifecycle, dispatchJobs };
}

type Setup = ReturnType<typeof setup>;

/** The start is refused with `code`, and nothing was written. */
async function expectRefusedStart(s: Setup, code: string, request = {}) {
  const before = s.campaigns.stored(CID);
  await expect(s.lifecycle.start(WS, CID, request)).rejects.toMatchObject({ code });
  expect(s.campaigns.stored(CID)).toEqual(before);
  expect(s.dispatchJobs()).toHaveLength(0);
}

describe('CampaignLifecycle (use case, ports faked)', () => {
  describe('start', () => {
    it('moves a DRAFT campaign to RUNNING and writes one dispatch job in the same unit of work', async () => {
      const s = setup();
      const view = await s.lifecycle.start(WS, CID);

      expect(view).toMatchObject({ id: CID, status: 'RUNNING', startedAt: NOW.toISOString(), endedAt: null, agentName: 'Ava' });
      expect(s.campaigns.stored(CID)).toMatchObject({ status: 'RUNNING', startedAt: NOW, reservedConcurrency: 1, allowBurst: false });
      expect(s.dispatchJobs()).toEqual([{ queue: 'campaigns', name: 'dispatch', payload: { campaignId: CID } }]);
      expect(s.uow.runs).toBe(1);
      expect(s.campaigns.locked).toEqual([CID]);
      expect(s.campaigns.reservationLocks).toEqual([WS]);
    });

    it('stores the reservation and burst flag of the request', async () => {
      const s = setup();
      const view = await s.lifecycle.start(WS, CID, { reservedConcurrency: 4, allowBurst: true });
      expect(view).toMatchObject({ reservedConcurrency: 4, allowBurst: true });
      expect(s.campaigns.stored(CID)).toMatchObject({ reservedConcurrency: 4, allowBurst: true });
    });

    it('defaults the reservation to the stored one', async () => {
      const s = setup({ reservedConcurrency: 3, allowBurst: true });
      await s.lifecycle.start(WS, CID);
      expect(s.campaigns.stored(CID)).toMatchObject({ reservedConcurrency: 3, allowBurst: true });
    });

    it('answers campaign_not_found for an unknown id and for another workspace’s campaign', async () => {
      const s = setup();
      s.workspaces.add({ id: OTHER_WS });
      await expect(s.lifecycle.start(WS, 'nope')).rejects.toMatchObject({ code: 'campaign_not_found' });
      await expect(s.lifecycle.start(OTHER_WS, CID)).rejects.toMatchObject({ code: 'campaign_not_found' });
      expect(s.campaigns.stored(CID)?.status).toBe('DRAFT');
    });

    it.each<CampaignStatus>(['RUNNING', 'COMPLETED', 'CANCELED'])('refuses a %s campaign with campaign_not_startable', async (status) => {
      const s = setup({}, status);
      await expect(s.lifecycle.start(WS, CID)).rejects.toMatchObject({ code: 'campaign_not_startable' });
      expect(s.dispatchJobs()).toHaveLength(0);
    });

    it('starts a PAUSED or CREDIT_EXHAUSTED campaign again', async () => {
      for (const status of ['PAUSED', 'CREDIT_EXHAUSTED'] as const) {
        const s = setup({}, status);
        await expect(s.lifecycle.start(WS, CID)).resolves.toMatchObject({ status: 'RUNNING' });
        expect(s.dispatchJobs()).toHaveLength(1);
      }
    });
  });

  describe('start checks, in order', () => {
    it('workspace_not_active comes first (before frozen activity and an empty wallet)', async () => {
      const s = setup();
      s.workspaces.add({ id: WS, status: 'SUSPENDED', activityFrozen: true });
      s.wallet.balances.set(WS, 0);
      await expectRefusedStart(s, 'workspace_not_active');
    });

    it('activity_frozen comes before insufficient_credits', async () => {
      const s = setup();
      s.workspaces.add({ id: WS, activityFrozen: true });
      s.wallet.balances.set(WS, 0);
      await expectRefusedStart(s, 'activity_frozen');
    });

    it('insufficient_credits without balance and without an active trial', async () => {
      const s = setup();
      s.wallet.balances.set(WS, 0);
      s.workspaces.add({ id: WS, trialUntil: new Date(NOW.getTime() - 1000).toISOString() });
      await expectRefusedStart(s, 'insufficient_credits');
    });

    it('an active trial stands in for credit', async () => {
      const s = setup();
      s.wallet.balances.set(WS, 0);
      s.workspaces.add({ id: WS, trialUntil: new Date(NOW.getTime() + 3600_000).toISOString() });
      await expect(s.lifecycle.start(WS, CID)).resolves.toMatchObject({ status: 'RUNNING' });
    });

    it('campaign_schedule_expired once scheduledEndAt has passed by the clock (before the number check)', async () => {
      const s = setup({ scheduledEndAt: new Date(NOW.getTime() + 60_000) });
      await s.attached.detach(CID, NUMBER);
      s.clock.advance(60_000);
      await expectRefusedStart(s, 'campaign_schedule_expired');
    });

    it('campaign_channel_needs_agent for a voice campaign without an agent', async () => {
      const s = setup({ agentId: null });
      await expectRefusedStart(s, 'campaign_channel_needs_agent');
    });

    it('agent_not_found_or_not_provisioned for a PROVISIONING agent and for one that no longer exists', async () => {
      const s = setup();
      s.agents.add({ id: AGENT, workspaceId: WS, status: 'PROVISIONING' });
      await expectRefusedStart(s, 'agent_not_found_or_not_provisioned');
      s.agents.agents.delete(AGENT);
      await expectRefusedStart(s, 'agent_not_found_or_not_provisioned');
    });

    it.each([
      [{ hasSender: false, template: 'ready' as const }, 'campaign_channel_needs_sender'],
      [{ hasSender: true, template: 'missing' as const }, 'campaign_channel_needs_template'],
      [{ hasSender: true, template: 'not_approved' as const }, 'outreach_template_not_approved'],
      [{ hasSender: true, template: 'needs_runtime_context' as const }, 'outreach_template_needs_runtime_context'],
    ])('a WhatsApp campaign with %o answers %s', async (readiness, code) => {
      const s = setup({ channel: 'WHATSAPP', agentId: null });
      s.whatsapp.hasSender = readiness.hasSender;
      s.whatsapp.template = readiness.template;
      await expectRefusedStart(s, code);
    });

    it('a WhatsApp campaign needs no agent and no numbers when its sender and template are ready', async () => {
      const s = setup({ channel: 'WHATSAPP', agentId: null });
      await s.attached.detach(CID, NUMBER);
      await expect(s.lifecycle.start(WS, CID)).resolves.toMatchObject({ status: 'RUNNING' });
    });

    it('an email campaign needs a sender, then a template', async () => {
      const s = setup({ channel: 'EMAIL', agentId: null });
      s.email.hasSender = false;
      s.email.hasTemplate = false;
      await expectRefusedStart(s, 'campaign_channel_needs_email_sender');
      s.email.hasSender = true;
      await expectRefusedStart(s, 'campaign_channel_needs_email_template');
    });

    it('campaign_channel_needs_workflow for a CUSTOM campaign without a workflow', async () => {
      const s = setup({ channel: 'CUSTOM', agentId: null });
      await expectRefusedStart(s, 'campaign_channel_needs_workflow');
    });

    it('campaign_workflow_not_active for a journey whose workflow is not ACTIVE or gone', async () => {
      const s = setup({ workflowId: WORKFLOW });
      s.workflows.statuses.set(WORKFLOW, 'DRAFT');
      await expectRefusedStart(s, 'campaign_workflow_not_active');
      s.workflows.statuses.delete(WORKFLOW);
      await expectRefusedStart(s, 'campaign_workflow_not_active');
      s.workflows.statuses.set(WORKFLOW, 'ACTIVE');
      await expect(s.lifecycle.start(WS, CID)).resolves.toMatchObject({ status: 'RUNNING' });
    });

    it('campaign_no_phone_numbers without attached numbers', async () => {
      const s = setup();
      await s.attached.detach(CID, NUMBER);
      await expectRefusedStart(s, 'campaign_no_phone_numbers');
    });

    it('campaign_no_phone_numbers when the only number is on a disabled carrier or in another workspace', async () => {
      const s = setup();
      s.phones.numbers.add({ id: NUMBER, workspaceId: WS, e164: '+14155550100', carrierEnabled: false });
      await expectRefusedStart(s, 'campaign_no_phone_numbers');
      s.phones.numbers.add({ id: NUMBER, workspaceId: OTHER_WS, e164: '+14155550100' });
      await expectRefusedStart(s, 'campaign_no_phone_numbers');
    });

    it('campaign_no_pending_contacts when a list campaign has no contact with work left (only final or in-flight ones)', async () => {
      const s = setup();
      s.contacts.seed(WS, CID, { phone: '+14155550102' });
      s.contacts.seed(WS, CID, { phone: '+14155550103' });
      const [a, b, c] = s.contacts.inCampaign(CID);
      s.contacts.rows.get(a.id)!.status = 'COMPLETED';
      s.contacts.rows.get(b.id)!.status = 'FAILED';
      s.contacts.rows.get(c.id)!.status = 'IN_PROGRESS';
      await expectRefusedStart(s, 'campaign_no_pending_contacts');
    });

    it('a contact waiting for its retry is work left: the campaign starts', async () => {
      const s = setup();
      for (const c of s.contacts.inCampaign(CID)) s.contacts.rows.get(c.id)!.status = 'RETRY_SCHEDULED';
      await expect(s.lifecycle.start(WS, CID)).resolves.toMatchObject({ status: 'RUNNING' });
    });

    it('an API campaign starts without contacts', async () => {
      const s = setup({ source: 'API' });
      s.contacts.deleteCampaign(CID);
      await expect(s.lifecycle.start(WS, CID)).resolves.toMatchObject({ status: 'RUNNING' });
    });

    it('campaign_is_inbound_misconfigured for an outbound campaign with an INBOUND agent and no contacts', async () => {
      const s = setup({ source: 'API' });
      s.contacts.deleteCampaign(CID);
      s.agents.add({ id: AGENT, workspaceId: WS, agentType: 'INBOUND' });
      await expectRefusedStart(s, 'campaign_is_inbound_misconfigured');
    });

    it.each([0, 11, 1.5])('invalid_reserved_concurrency for reservedConcurrency %p (allocation 10)', async (reservedConcurrency) => {
      const s = setup();
      await expectRefusedStart(s, 'invalid_reserved_concurrency', { reservedConcurrency });
    });

    it('reserved_exceeds_allocation when RUNNING campaigns already reserve too much; paused ones do not count', async () => {
      const s = setup();
      s.campaigns.seed(aCampaign({ workspaceId: WS, status: 'RUNNING', reservedConcurrency: 8 }));
      s.campaigns.seed(aCampaign({ workspaceId: WS, status: 'PAUSED', reservedConcurrency: 5 }));
      s.campaigns.seed(aCampaign({ workspaceId: OTHER_WS, status: 'RUNNING', reservedConcurrency: 10 }));
      await expectRefusedStart(s, 'reserved_exceeds_allocation', { reservedConcurrency: 3 });
      await expect(s.lifecycle.start(WS, CID, { reservedConcurrency: 2 })).resolves.toMatchObject({ status: 'RUNNING', reservedConcurrency: 2 });
    });
  });

  describe('pause', () => {
    it('moves a RUNNING campaign to PAUSED without a dispatch job', async () => {
      const s = setup({}, 'RUNNING');
      s.clock.advance(5_000);
      await expect(s.lifecycle.pause(WS, CID)).resolves.toMatchObject({ status: 'PAUSED' });
      expect(s.campaigns.stored(CID)).toMatchObject({ status: 'PAUSED', updatedAt: s.clock.now() });
      expect(s.outbox.jobs).toHaveLength(0);
    });

    it('answers campaign_not_running for a campaign that is not RUNNING, and for an unknown one (the spec’s quirk)', async () => {
      const s = setup({}, 'DRAFT');
      await expect(s.lifecycle.pause(WS, CID)).rejects.toMatchObject({ code: 'campaign_not_running' });
      await expect(s.lifecycle.pause(WS, 'nope')).rejects.toMatchObject({ code: 'campaign_not_running' });
      await expect(s.lifecycle.pause(OTHER_WS, CID)).rejects.toMatchObject({ code: 'campaign_not_running' });
      expect(s.campaigns.stored(CID)?.status).toBe('DRAFT');
    });

    it('refuses an INBOUND campaign with inbound_campaign_action_not_supported', async () => {
      const s = setup({ source: 'INBOUND' }, 'RUNNING');
      await expect(s.lifecycle.pause(WS, CID)).rejects.toMatchObject({ code: 'inbound_campaign_action_not_supported' });
    });
  });

  describe('resume', () => {
    it('moves a PAUSED campaign back to RUNNING with a dispatch job, keeping startedAt', async () => {
      const s = setup({}, 'PAUSED');
      const startedAt = new Date('2026-11-20T08:00:00Z');
      s.campaigns.seed(aCampaign({ workspaceId: WS, id: CID, draft: { agentId: AGENT }, status: 'PAUSED', startedAt }));
      await expect(s.lifecycle.resume(WS, CID)).resolves.toMatchObject({ status: 'RUNNING', startedAt: startedAt.toISOString() });
      expect(s.dispatchJobs()).toEqual([{ queue: 'campaigns', name: 'dispatch', payload: { campaignId: CID } }]);
    });

    it('resumes a paused campaign whose remaining contacts all wait for a retry (they are work left)', async () => {
      const s = setup({}, 'PAUSED');
      for (const c of s.contacts.inCampaign(CID)) s.contacts.rows.get(c.id)!.status = 'RETRY_SCHEDULED';
      await expect(s.lifecycle.resume(WS, CID)).resolves.toMatchObject({ status: 'RUNNING' });
      expect(s.dispatchJobs()).toHaveLength(1);
    });

    it('runs the start checks: a paused campaign without credit stays PAUSED', async () => {
      const s = setup({}, 'PAUSED');
      s.wallet.balances.set(WS, 0);
      await expect(s.lifecycle.resume(WS, CID)).rejects.toMatchObject({ code: 'insufficient_credits' });
      expect(s.campaigns.stored(CID)?.status).toBe('PAUSED');
      expect(s.dispatchJobs()).toHaveLength(0);
    });

    it('answers campaign_not_paused for a campaign that is not PAUSED', async () => {
      for (const status of ['DRAFT', 'RUNNING', 'CREDIT_EXHAUSTED'] as const) {
        const s = setup({}, status);
        await expect(s.lifecycle.resume(WS, CID)).rejects.toMatchObject({ code: 'campaign_not_paused' });
      }
    });

    it('answers campaign_not_found for an unknown campaign', async () => {
      const s = setup();
      await expect(s.lifecycle.resume(WS, 'nope')).rejects.toMatchObject({ code: 'campaign_not_found' });
    });
  });

  describe('stop', () => {
    it.each<CampaignStatus>(['DRAFT', 'RUNNING', 'PAUSED', 'CREDIT_EXHAUSTED'])('cancels a %s campaign and records endedAt', async (status) => {
      const s = setup({}, status);
      await expect(s.lifecycle.stop(WS, CID)).resolves.toMatchObject({ status: 'CANCELED', endedAt: NOW.toISOString() });
      expect(s.campaigns.stored(CID)).toMatchObject({ status: 'CANCELED', endedAt: NOW });
      expect(s.outbox.jobs).toHaveLength(0);
    });

    it.each<CampaignStatus>(['COMPLETED', 'CANCELED'])('answers campaign_already_terminal for a %s campaign', async (status) => {
      const s = setup({}, status);
      await expect(s.lifecycle.stop(WS, CID)).rejects.toMatchObject({ code: 'campaign_already_terminal' });
    });

    it('answers campaign_not_found for an unknown or foreign campaign', async () => {
      const s = setup();
      await expect(s.lifecycle.stop(WS, 'nope')).rejects.toMatchObject({ code: 'campaign_not_found' });
      await expect(s.lifecycle.stop(OTHER_WS, CID)).rejects.toMatchObject({ code: 'campaign_not_found' });
    });
  });

  describe('restart', () => {
    function finished(status: 'COMPLETED' | 'CANCELED' = 'COMPLETED') {
      const s = setup({}, status);
      s.campaigns.seed(
        aCampaign({
          workspaceId: WS,
          id: CID,
          draft: { agentId: AGENT },
          status,
          startedAt: new Date('2026-11-01T00:00:00Z'),
          endedAt: new Date('2026-11-02T00:00:00Z'),
        }),
      );
      s.contacts.deleteCampaign(CID);
      const seeded = {
        failed: s.contacts.seed(WS, CID, { phone: '+14155550111', status: 'FAILED', attempts: 3 }),
        retry: s.contacts.seed(WS, CID, { phone: '+14155550112', status: 'RETRY_SCHEDULED', attempts: 1 }),
        completed: s.contacts.seed(WS, CID, { phone: '+14155550113', status: 'COMPLETED', attempts: 1 }),
        dnc: s.contacts.seed(WS, CID, { phone: '+14155550114', status: 'DO_NOT_CALL', attempts: 0 }),
        inProgress: s.contacts.seed(WS, CID, { phone: '+14155550115', status: 'IN_PROGRESS', attempts: 2 }),
      };
      return { ...s, seeded };
    }

    it('puts FAILED and unreached contacts back to PENDING, keeps final and in-flight ones, and runs again', async () => {
      const s = finished();
      s.clock.advance(60_000);
      const view = await s.lifecycle.restart(WS, CID);

      expect(view).toMatchObject({ status: 'RUNNING', startedAt: s.clock.now().toISOString(), endedAt: null });
      const byId = async (id: string) => (await s.contacts.findById(CID, id))!;
      expect(await byId(s.seeded.failed.id)).toMatchObject({ status: 'PENDING', attempts: 0 });
      expect(await byId(s.seeded.retry.id)).toMatchObject({ status: 'PENDING', attempts: 0 });
      expect(await byId(s.seeded.completed.id)).toMatchObject({ status: 'COMPLETED', attempts: 1 });
      expect(await byId(s.seeded.dnc.id)).toMatchObject({ status: 'DO_NOT_CALL' });
      expect(await byId(s.seeded.inProgress.id)).toMatchObject({ status: 'IN_PROGRESS', attempts: 2 });
      expect(s.dispatchJobs()).toEqual([{ queue: 'campaigns', name: 'dispatch', payload: { campaignId: CID } }]);
    });

    it('a refused restart rolls the contact reset back', async () => {
      const s = finished('CANCELED');
      s.wallet.balances.set(WS, 0);
      await expect(s.lifecycle.restart(WS, CID)).rejects.toMatchObject({ code: 'insufficient_credits' });
      expect((await s.contacts.findById(CID, s.seeded.failed.id))?.status).toBe('FAILED');
      expect(s.campaigns.stored(CID)?.status).toBe('CANCELED');
      expect(s.uow.rolledBack).toBe(1);
    });

    it('answers campaign_no_pending_contacts when nothing can be reset', async () => {
      const s = finished();
      s.contacts.deleteCampaign(CID);
      s.contacts.seed(WS, CID, { phone: '+14155550120', status: 'COMPLETED' });
      await expect(s.lifecycle.restart(WS, CID)).rejects.toMatchObject({ code: 'campaign_no_pending_contacts' });
    });

    it.each<CampaignStatus>(['DRAFT', 'RUNNING', 'PAUSED'])('answers campaign_not_restartable for a %s campaign', async (status) => {
      const s = setup({}, status);
      await expect(s.lifecycle.restart(WS, CID)).rejects.toMatchObject({ code: 'campaign_not_restartable' });
    });

    it('refuses a journey campaign with journey_campaign_action_unsupported, before resetting anything', async () => {
      const s = setup({ workflowId: WORKFLOW }, 'COMPLETED');
      const failed = s.contacts.seed(WS, CID, { phone: '+14155550130', status: 'FAILED' });
      await expect(s.lifecycle.restart(WS, CID)).rejects.toMatchObject({ code: 'journey_campaign_action_unsupported' });
      expect((await s.contacts.findById(CID, failed.id))?.status).toBe('FAILED');
    });
  });
  describe('re-engage and finish-interrupted (decisions.md 35.1, 35.2)', () => {
    it('a COMPLETED campaign whose start checks fail stays COMPLETED and its contacts stay finished (the requeue rolls back)', async () => {
      const s = setup({}, 'COMPLETED');
      const [contact] = s.contacts.inCampaign(CID);
      s.contacts.rows.get(contact.id)!.status = 'FAILED';
      s.wallet.balances.set(WS, 0);
      await expect(s.lifecycle.reengage(WS, CID, 'failed')).rejects.toMatchObject({ code: 'insufficient_credits' });
      expect(s.campaigns.stored(CID)?.status).toBe('COMPLETED');
      expect((await s.contacts.findById(CID, contact.id))?.status).toBe('FAILED');
      expect(s.dispatchJobs()).toHaveLength(0);
    });

    it('a COMPLETED campaign with nothing in the segment stays COMPLETED: no start checks, no dispatch', async () => {
      const s = setup({}, 'COMPLETED');
      s.wallet.balances.set(WS, 0); // would refuse a start
      await expect(s.lifecycle.reengage(WS, CID, 'completed')).resolves.toMatchObject({ requeued: 0, campaign: { status: 'COMPLETED' } });
      expect(s.dispatchJobs()).toHaveLength(0);
    });

    it('finish-interrupted takes only connected calls shorter than incompleteCallSeconds', async () => {
      const s = setup({ incompleteRetryEnabled: true, incompleteCallSeconds: 30 } as Partial<CampaignDraft>, 'RUNNING');
      const short = s.contacts.seed(WS, CID, { phone: '+14155550102', status: 'COMPLETED', lastOutcome: 'completed', lastTalkMs: 29_000 });
      const long = s.contacts.seed(WS, CID, { phone: '+14155550103', status: 'COMPLETED', lastOutcome: 'completed', lastTalkMs: 30_000 });
      const machine = s.contacts.seed(WS, CID, { phone: '+14155550104', status: 'FAILED', lastOutcome: 'voicemail', lastTalkMs: null });
      await expect(s.lifecycle.finishInterrupted(WS, CID)).resolves.toMatchObject({ requeued: 1, campaign: { status: 'RUNNING' } });
      expect([short, long, machine].map((c) => s.contacts.stored(c.id)?.status)).toEqual(['PENDING', 'COMPLETED', 'FAILED']);
      expect(s.dispatchJobs()).toHaveLength(1);
    });
  });
});
