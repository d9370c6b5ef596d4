import { Injectable } from '@nestjs/common';
import { AgentDirectory } from '@outreach/agents';
import { AppError } from '@outreach/core';
import { PhoneNumberDirectory } from '@outreach/telephony';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { CampaignProps } from '../domain/campaign.aggregate';
import { InboundFacts } from '../domain/start-checks';
import { ApiLeadContactStore } from './api-lead-intake.service';
import { CampaignPhoneNumberRepository } from './campaigns.ports';
import { ContactTimeline } from './contact-timeline';

/** The RUNNING INBOUND campaign that answers calls to a number. */
export interface InboundRoute {
  campaignId: string;
  workspaceId: string;
  agentId: string | null;
}

/** A caller admitted into an INBOUND campaign for one call. */
export interface AdmittedCaller {
  contactId: string;
  /** The contact's attempt for this call; -1 when an earlier call of the caller is still in progress (this one is then a stale attempt: recorded and billed, the contact untouched). */
  attemptSeq: number;
  /** The contact's attempt count after this call (the Call's attemptNumber). */
  attempts: number;
  created: boolean;
}

/** Persistence of inbound routing (implemented in infrastructure/). */
export abstract class InboundCampaignStore {
  /** INBOUND campaigns started and not finished (RUNNING, PAUSED, CREDIT_EXHAUSTED) answering on these numbers, other than `exceptCampaignId`. */
  abstract liveCampaignsOn(numberIds: readonly string[], exceptCampaignId: string): Promise<Array<{ numberId: string; campaignId: string }>>;
  /** The RUNNING INBOUND campaign answering on the number, share-locked until the transaction ends (a stop waits for the call's admission); null when none. */
  abstract lockRunningCampaignOn(numberId: string): Promise<InboundRoute | null>;
  /**
   * The contact (found or just inserted) moves IN_PROGRESS for the call `callId` unless a call of
   * it is already in progress; the campaign counts one more received call.
   */
  abstract answer(input: { campaignId: string; contactId: string; callId: string; now: Date; deadlineAt: Date }): Promise<{ attemptSeq: number; attempts: number } | null>;
  abstract countReceivedCall(campaignId: string): Promise<void>;
  /** A contact of an INBOUND campaign (its caller), or null for any other contact. */
  abstract findCaller(contactId: string): Promise<InboundCaller | null>;
}

/** An INBOUND campaign's contact as the results module sees it (decisions.md 36.5). */
export interface InboundCaller {
  contactId: string;
  campaignId: string;
  workspaceId: string;
  phone: string;
  name: string | null;
  fields: Record<string, string>;
}

/**
 * INBOUND campaigns (decisions.md 36): the facts their start checks need, the rules of their
 * drafts, and the admission of a caller into the RUNNING campaign that answers on the number
 * dialled. Callers wrap `route` and `admit` in one UnitOfWork.run.
 */
@Injectable()
export class InboundCampaigns {
  constructor(
    private readonly store: InboundCampaignStore,
    private readonly contacts: ApiLeadContactStore,
    private readonly attached: CampaignPhoneNumberRepository,
    private readonly numbers: PhoneNumberDirectory,
    private readonly agents: AgentDirectory,
    private readonly timeline: ContactTimeline,
    private readonly workspaces: WorkspaceAdministration,
  ) {}

  /**
   * Create and PATCH of an INBOUND campaign: its agent is an INBOUND agent (400
   * agent_type_not_inbound); a number named on create must be the workspace's, on an enabled carrier
   * (400 phone_number_not_in_workspace). Other sources take no phoneNumberId (400 invalid_request).
   * INBOUND campaigns are the workspace feature `inbound` (403 feature_not_available without it).
   */
  async checkDraft(workspaceId: string, campaign: Pick<CampaignProps, 'source' | 'agentId'>, phoneNumberId?: string): Promise<void> {
    if (campaign.source !== 'INBOUND') {
      if (phoneNumberId !== undefined) throw new AppError('invalid_request', { message: 'phoneNumberId is for INBOUND campaigns; attach caller ids with POST /campaigns/{id}/phone-numbers' });
      return;
    }
    if (!(await this.workspaces.get(workspaceId)).features.includes('inbound')) {
      throw new AppError('feature_not_available', { message: 'INBOUND campaigns are not enabled for this workspace' });
    }
    if (campaign.agentId) {
      const agent = await this.agents.find(workspaceId, campaign.agentId);
      if (agent && agent.agentType !== 'INBOUND') throw new AppError('agent_type_not_inbound', { message: `agent ${agent.id} is an ${agent.agentType} agent` });
    }
    if (phoneNumberId !== undefined) {
      const [number] = await this.numbers.findByIds(workspaceId, [phoneNumberId]);
      if (!number || !number.carrierEnabled) throw new AppError('phone_number_not_in_workspace', { message: `no usable phone number ${phoneNumberId} in the workspace` });
    }
  }

  /** What an INBOUND campaign's start checks look at (decisions.md 36.2), read in the start's transaction. */
  async startFacts(campaign: Pick<CampaignProps, 'id' | 'workspaceId' | 'agentId'>): Promise<InboundFacts> {
    const attachedIds = await this.attached.listIds(campaign.id);
    let numbers = await this.numbers.findByIds(campaign.workspaceId, attachedIds);
    let agentNumbers = 0;
    if (attachedIds.length === 0) {
      const own = campaign.agentId ? await this.numbers.byInboundAgent(campaign.workspaceId, campaign.agentId) : [];
      agentNumbers = own.length;
      numbers = own.length === 1 ? own : [];
    }
    const live = new Map((await this.store.liveCampaignsOn(numbers.map((n) => n.id), campaign.id)).map((l) => [l.numberId, l.campaignId]));
    const facts: InboundFacts['numbers'] = [];
    for (const n of numbers) {
      const agent = n.inboundAgentId ? await this.agents.find(campaign.workspaceId, n.inboundAgentId) : null;
      facts.push({
        id: n.id,
        usable: n.inbound && n.carrierEnabled,
        agent: agent ? { id: agent.id, status: agent.status, agentType: agent.agentType } : null,
        liveCampaignId: live.get(n.id) ?? null,
      });
    }
    return { attached: attachedIds.length > 0, missing: attachedIds.length - numbers.length, agentNumbers, numbers: facts };
  }

  /** Create with phoneNumberId (checked by checkDraft). */
  attachNumber(campaignId: string, phoneNumberId: string): Promise<void> {
    return this.attached.attach(campaignId, phoneNumberId);
  }

  /** After the start checks passed: the agent's only number becomes the campaign's (it is what the campaign answers on from now on). */
  async attachStartNumbers(campaignId: string, facts: InboundFacts): Promise<void> {
    if (!facts.attached) for (const n of facts.numbers) await this.attached.attach(campaignId, n.id);
  }

  /** One more call received by the campaign (receivedCalls). */
  countReceivedCall(campaignId: string): Promise<void> {
    return this.store.countReceivedCall(campaignId);
  }

  /** The caller behind a contact of an INBOUND campaign, or null (results: decisions.md 36.5). */
  findCaller(contactId: string): Promise<InboundCaller | null> {
    return this.store.findCaller(contactId);
  }

  /** The RUNNING INBOUND campaign answering on the number (share-locked), or null: the call is then turned away. */
  route(numberId: string): Promise<InboundRoute | null> {
    return this.store.lockRunningCampaignOn(numberId);
  }

  /**
   * The caller as the campaign's contact — deduplicated by phone, like every campaign contact —
   * with an attempt in flight for the call `callId`. The caller then counts the call with
   * `countReceivedCall`, last in its transaction: that UPDATE locks the campaign row until commit,
   * and calls arriving together wait for each other only that long.
   */
  async admit(route: InboundRoute, input: { phone: string; callId: string; now: Date; deadlineAt: Date }): Promise<AdmittedCaller> {
    const { id, created } = await this.contacts.insertOrFind(route.workspaceId, route.campaignId, { phone: input.phone, name: null, fields: {} }, this.timeline.pending('created', { source: 'INBOUND' }));
    const answered = await this.store.answer({ campaignId: route.campaignId, contactId: id, callId: input.callId, now: input.now, deadlineAt: input.deadlineAt });
    if (!answered) return { contactId: id, attemptSeq: -1, attempts: 0, created };
    await this.timeline.record({ contactId: id, type: 'attempt_started', detail: { attempt: answered.attempts, callId: input.callId, inbound: true } });
    return { contactId: id, attemptSeq: answered.attemptSeq, attempts: answered.attempts, created };
  }
}
