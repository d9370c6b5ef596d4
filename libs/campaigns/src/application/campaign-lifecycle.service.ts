import { Injectable } from '@nestjs/common';
import { AgentDirectory } from '@outreach/agents';
import { WalletBalance } from '@outreach/billing';
import { AppError, Clock, Outbox, UnitOfWork } from '@outreach/core';
import { PhoneNumberDirectory } from '@outreach/telephony';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { Campaign, CampaignProps } from '../domain/campaign.aggregate';
import { hasMessageLeg, hasVoiceLeg, LIST_SOURCES } from '../domain/campaign-kinds';
import { assertStartChecks, StartFacts } from '../domain/start-checks';
import { WORK_LEFT_STATUSES } from '../domain/contact-state-machine';
import { CampaignOperation } from '../domain/campaign-state-machine';
import { ContactSelection, interruptedSelection, reengageSelection, ReengageSegment } from '../domain/reengage-segments';
import { CampaignJob, CampaignQueue } from './campaign-jobs';
import { CampaignView, CampaignViews } from './campaign-views';
import { InboundCampaigns } from './inbound-campaigns';
import {
  CampaignPhoneNumberRepository,
  CampaignRepository,
  ContactRepository,
  EmailReadiness,
  WhatsappReadiness,
  WorkflowDirectory,
} from './campaigns.ports';

/** What a re-engage or finish-interrupted did: how many contacts it requeued, and the campaign after it. */
export interface Requeued {
  requeued: number;
  campaign: CampaignView;
}

export interface StartRequest {
  reservedConcurrency?: number;
  allowBurst?: boolean;
}

/**
 * start, resume, restart, pause, stop. Each runs in one transaction holding the campaign row; a
 * refused request changes nothing. Starting writes the engine's dispatch job to the outbox in the
 * same transaction.
 */
@Injectable()
export class CampaignLifecycle {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly contacts: ContactRepository,
    private readonly numbers: CampaignPhoneNumberRepository,
    private readonly views: CampaignViews,
    private readonly workspaces: WorkspaceAdministration,
    private readonly wallet: WalletBalance,
    private readonly agents: AgentDirectory,
    private readonly phoneNumbers: PhoneNumberDirectory,
    private readonly whatsapp: WhatsappReadiness,
    private readonly email: EmailReadiness,
    private readonly workflows: WorkflowDirectory,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly inbound: InboundCampaigns,
  ) {}

  start(workspaceId: string, id: string, request: StartRequest = {}): Promise<CampaignView> {
    return this.run(workspaceId, id, 'start', request);
  }

  resume(workspaceId: string, id: string, request: StartRequest = {}): Promise<CampaignView> {
    return this.run(workspaceId, id, 'resume', request);
  }

  /** FAILED and unreached contacts go back to PENDING with fresh attempts, then the start checks run. */
  restart(workspaceId: string, id: string, request: StartRequest = {}): Promise<CampaignView> {
    return this.run(workspaceId, id, 'restart', request);
  }

  /**
   * POST …/re-engage {segment} (decisions.md 35.1): the segment's finished contacts start a fresh run.
   * RUNNING, PAUSED and CREDIT_EXHAUSTED keep their status; a COMPLETED campaign runs again
   * (`reopen`, after the start checks) when something was requeued; else 409 campaign_not_reengageable.
   */
  reengage(workspaceId: string, id: string, segment: ReengageSegment): Promise<Requeued> {
    return this.requeue(workspaceId, id, 'reengage', () => reengageSelection(segment));
  }

  /**
   * POST …/finish-interrupted (decisions.md 35.2): the contacts whose last call a person answered
   * but that was cut before incompleteCallSeconds are called again; 409 incomplete_retry_disabled
   * while incompleteRetryEnabled is off. Same statuses as re-engage.
   */
  finishInterrupted(workspaceId: string, id: string): Promise<Requeued> {
    return this.requeue(workspaceId, id, 'finishInterrupted', (p) => interruptedSelection(p.settings));
  }

  /** The spec's quirk: an unknown (or another workspace's) campaign answers 400 campaign_not_running. */
  async pause(workspaceId: string, id: string): Promise<CampaignView> {
    const campaign = await this.uow.run(async () => {
      const found = await this.campaigns.findByIdForUpdate(workspaceId, id);
      if (!found) throw new AppError('campaign_not_running', { message: `no running campaign ${id}` });
      found.pause(this.clock.now());
      await this.campaigns.update(found);
      return found;
    });
    return this.views.render(campaign);
  }

  async stop(workspaceId: string, id: string): Promise<CampaignView> {
    const campaign = await this.uow.run(async () => {
      const found = await this.require(workspaceId, id);
      found.stop(this.clock.now());
      await this.campaigns.update(found);
      return found;
    });
    return this.views.render(campaign);
  }

  private async requeue(
    workspaceId: string,
    id: string,
    operation: Extract<CampaignOperation, 'reengage' | 'finishInterrupted'>,
    select: (campaign: CampaignProps) => ContactSelection,
  ): Promise<Requeued> {
    const done = await this.uow.run(async () => {
      const found = await this.require(workspaceId, id);
      found.assertAllowed(operation);
      const props = found.toProps();
      const requeued = await this.contacts.reengage(id, select(props));
      // A finished run that got work back runs again; with nothing requeued it stays COMPLETED.
      if (requeued > 0 && found.status === 'COMPLETED') {
        const reservation = { reservedConcurrency: props.reservedConcurrency, allowBurst: props.allowBurst };
        assertStartChecks(await this.gatherFacts(found, reservation.reservedConcurrency));
        found.run('reopen', reservation, this.clock.now());
        await this.campaigns.update(found);
      }
      if (requeued > 0 && found.status === 'RUNNING') {
        await this.outbox.enqueue({ queue: CampaignQueue.Campaigns, name: CampaignJob.Dispatch, payload: { campaignId: id } });
      }
      return { requeued, campaign: found };
    });
    return { requeued: done.requeued, campaign: await this.views.render(done.campaign) };
  }

  private async run(workspaceId: string, id: string, event: 'start' | 'resume' | 'restart', request: StartRequest): Promise<CampaignView> {
    const campaign = await this.uow.run(async () => {
      const found = await this.require(workspaceId, id);
      found.assertCan(event);
      const props = found.toProps();
      const reservation = {
        reservedConcurrency: request.reservedConcurrency ?? props.reservedConcurrency,
        allowBurst: request.allowBurst ?? props.allowBurst,
      };
      if (event === 'restart') await this.contacts.reset(id, 'restart');
      const facts = await this.gatherFacts(found, reservation.reservedConcurrency);
      assertStartChecks(facts);
      if (facts.inbound) await this.inbound.attachStartNumbers(id, facts.inbound);
      found.run(event, reservation, this.clock.now());
      await this.campaigns.update(found);
      await this.outbox.enqueue({ queue: CampaignQueue.Campaigns, name: CampaignJob.Dispatch, payload: { campaignId: id } });
      return found;
    });
    return this.views.render(campaign);
  }

  /** Everything the start checks need, read inside the transaction (reservations under a workspace lock). */
  private async gatherFacts(campaign: Campaign, requestedConcurrency: number): Promise<StartFacts> {
    const p = campaign.toProps();
    const now = this.clock.now();
    const workspace = await this.workspaces.get(p.workspaceId);
    const { balanceMinor } = await this.wallet.get(p.workspaceId);
    const agent = p.agentId ? await this.agents.find(p.workspaceId, p.agentId) : null;
    const whatsapp = hasMessageLeg(p.channel)
      ? await this.whatsapp.check(p.workspaceId, p.settings.whatsappOutreachTemplateId)
      : { hasSender: true, template: 'ready' as const };
    const mapped = hasMessageLeg(p.channel) ? mappedTemplateIds(p.settings.whatsappTemplateByMetric) : [];
    const metricTemplates = await Promise.all(mapped.map(async (id) => (await this.whatsapp.check(p.workspaceId, id)).template));
    const email = p.channel === 'EMAIL' ? await this.email.check(p.workspaceId, p.id) : { hasSender: true, hasTemplate: true };
    const workflowStatus = p.workflowId ? await this.workflows.status(p.workspaceId, p.workflowId) : null;
    const usablePhoneNumbers = hasVoiceLeg(p.channel)
      ? (await this.phoneNumbers.findByIds(p.workspaceId, await this.numbers.listIds(p.id))).filter((n) => n.carrierEnabled).length
      : 0;
    const contactsWithWorkLeft = LIST_SOURCES.includes(p.source) ? await this.contacts.count(p.id, WORK_LEFT_STATUSES) : 0;
    const totalContacts = await this.contacts.count(p.id);
    const reservedByOthers = await this.campaigns.lockAndSumRunningReservations(p.workspaceId, p.id);
    // After the workspace lock: two starts of the workspace cannot both take one number (decisions.md 36.2).
    const inbound = p.source === 'INBOUND' ? await this.inbound.startFacts(p) : null;
    return {
      now,
      workspace: {
        status: workspace.status,
        activityFrozen: workspace.activityFrozen,
        trialUntil: workspace.trialUntil ? new Date(workspace.trialUntil) : null,
        concurrency: workspace.concurrency,
      },
      walletBalanceMinor: balanceMinor,
      campaign: { channel: p.channel, source: p.source, scheduledEndAt: p.scheduledEndAt, agentId: p.agentId, workflowId: p.workflowId },
      agent: agent ? { status: agent.status, agentType: agent.agentType } : null,
      whatsapp,
      metricTemplates,
      email,
      workflowStatus,
      usablePhoneNumbers,
      contactsWithWorkLeft,
      totalContacts,
      requestedConcurrency,
      reservedByOthers,
      inbound,
    };
  }

  private async require(workspaceId: string, id: string): Promise<Campaign> {
    const campaign = await this.campaigns.findByIdForUpdate(workspaceId, id);
    if (!campaign) throw new AppError('campaign_not_found', { message: `no campaign ${id}` });
    return campaign;
  }
}

/** The distinct template ids `whatsappTemplateByMetric` names (33.17), in order. */
function mappedTemplateIds(mapping: Record<string, unknown> | null): string[] {
  const ids = new Set<string>();
  for (const byValue of Object.values(mapping ?? {})) {
    if (typeof byValue !== 'object' || byValue === null) continue;
    for (const id of Object.values(byValue)) if (typeof id === 'string') ids.add(id);
  }
  return [...ids];
}
