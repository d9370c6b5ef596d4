import { AppError, ErrorCode } from '@outreach/core';
import { CampaignChannel, CampaignSource, hasMessageLeg, hasVoiceLeg, LIST_SOURCES } from './campaign-kinds';

/** Readiness of the WhatsApp outreach template the campaign names. */
export type TemplateReadiness = 'missing' | 'not_approved' | 'needs_runtime_context' | 'ready';

/** One number an INBOUND campaign would answer on (decisions.md 36.2). */
export interface InboundNumberFacts {
  id: string;
  /** In the workspace, able to receive calls (`inbound`), on a carrier enabled for the workspace. */
  usable: boolean;
  /** The INBOUND agent assigned to the number, as it is now; null when none (or it no longer exists). */
  agent: { id: string; status: string; agentType: string } | null;
  /** Another INBOUND campaign, started and not finished (RUNNING, PAUSED, CREDIT_EXHAUSTED), that answers on it. */
  liveCampaignId: string | null;
}

/** What an INBOUND campaign's start looks at: the numbers it answers on. */
export interface InboundFacts {
  /** The campaign has numbers attached (phoneNumberId on create, or POST /campaigns/{id}/phone-numbers). */
  attached: boolean;
  /** Attached ids that are no longer numbers of the workspace. */
  missing: number;
  /** Without attached numbers: how many numbers are assigned to the campaign's agent. */
  agentNumbers: number;
  /** The numbers it would answer on: the attached ones, else the agent's only number. */
  numbers: InboundNumberFacts[];
}

/** Everything the start checks look at, gathered by the application through its ports. */
export interface StartFacts {
  now: Date;
  workspace: {
    status: string;
    activityFrozen: boolean;
    trialUntil: Date | null;
    /** Concurrency allocation: calls in flight across running campaigns. */
    concurrency: number;
  };
  walletBalanceMinor: number;
  campaign: {
    channel: CampaignChannel;
    source: CampaignSource;
    scheduledEndAt: Date | null;
    agentId: string | null;
    workflowId: string | null;
  };
  /** The campaign's agent, or null when it has none or it no longer exists. */
  agent: { status: string; agentType: string } | null;
  whatsapp: { hasSender: boolean; template: TemplateReadiness };
  /** The templates `whatsappTemplateByMetric` names (a follow-up after a call may send any of them); judged as the outreach template. */
  metricTemplates?: TemplateReadiness[];
  email: { hasSender: boolean; hasTemplate: boolean };
  /** The journey workflow's status, or null when missing. */
  workflowStatus: string | null;
  /** Numbers attached to the campaign that are in the workspace on an enabled carrier. */
  usablePhoneNumbers: number;
  /** Contacts the dispatcher may still claim: PENDING or RETRY_SCHEDULED (WORK_LEFT_STATUSES). */
  contactsWithWorkLeft: number;
  totalContacts: number;
  requestedConcurrency: number;
  /** Sum of reservations of the workspace's other RUNNING campaigns. */
  reservedByOthers: number;
  /** Gathered for INBOUND campaigns only. */
  inbound?: InboundFacts | null;
}

export interface StartCheck {
  name: string;
  /** The failing code (with a message), or null when the check passes. */
  check: (f: StartFacts) => { code: ErrorCode; message?: string } | null;
}

const fail = (code: ErrorCode, message?: string) => ({ code, message });

/** Why an outreach template cannot be sent as it is (start checks; live outreach edits, decisions.md 34.2), or null. */
export function templateRefusal(template: TemplateReadiness): { code: ErrorCode; message?: string } | null {
  switch (template) {
    case 'missing':
      return fail('campaign_channel_needs_template');
    case 'not_approved':
      return fail('outreach_template_not_approved');
    case 'needs_runtime_context':
      return fail('outreach_template_needs_runtime_context');
    default:
      return null;
  }
}

function hasActiveTrial(f: StartFacts): boolean {
  return f.workspace.trialUntil !== null && f.workspace.trialUntil.getTime() > f.now.getTime();
}

/**
 * An INBOUND campaign (decisions.md 36.2): without attached numbers its agent must have exactly one
 * number (inbound_agent_has_no_number, inbound_agent_has_many_numbers); every number it would answer
 * on is usable (inbound_did_unavailable), assigned to the campaign's agent, which is an ACTIVE
 * INBOUND agent (inbound_did_has_no_agent), and answered by no other live INBOUND campaign
 * (inbound_did_already_in_campaign).
 */
function inboundFailure(f: StartFacts): { code: ErrorCode; message?: string } | null {
  const inbound = f.inbound;
  if (!inbound) return fail('inbound_did_unavailable', 'the campaign has no inbound number');
  if (!inbound.attached) {
    if (inbound.agentNumbers === 0) return fail('inbound_agent_has_no_number', 'no number is assigned to the campaign\'s agent (PUT /phone-numbers/{id}/inbound-agent)');
    if (inbound.agentNumbers > 1) return fail('inbound_agent_has_many_numbers', `the agent answers on ${inbound.agentNumbers} numbers: attach one (phoneNumberId)`);
  }
  if (inbound.missing > 0) return fail('inbound_did_unavailable', 'an attached number is no longer in the workspace');
  for (const n of inbound.numbers) {
    if (!n.usable) return fail('inbound_did_unavailable', `number ${n.id} cannot receive calls (not inbound, or its carrier is disabled)`);
  }
  for (const n of inbound.numbers) {
    const a = n.agent;
    if (!a || a.status !== 'ACTIVE' || a.agentType !== 'INBOUND' || a.id !== f.campaign.agentId) {
      return fail('inbound_did_has_no_agent', a ? `number ${n.id} is answered by agent ${a.id} (${a.agentType}, ${a.status}), not this campaign's ACTIVE INBOUND agent` : `number ${n.id} has no inbound agent`);
    }
  }
  for (const n of inbound.numbers) {
    if (n.liveCampaignId) return fail('inbound_did_already_in_campaign', `number ${n.id} is answered by campaign ${n.liveCampaignId}`);
  }
  return null;
}

/** decisions.md 12.4: the start checks, in this order; the first failing one answers. */
export const START_CHECKS: readonly StartCheck[] = [
  { name: 'workspace active', check: (f) => (f.workspace.status === 'ACTIVE' ? null : fail('workspace_not_active')) },
  { name: 'activity not frozen', check: (f) => (f.workspace.activityFrozen ? fail('activity_frozen') : null) },
  {
    name: 'wallet or trial',
    check: (f) => (f.walletBalanceMinor <= 0 && !hasActiveTrial(f) ? fail('insufficient_credits') : null),
  },
  {
    name: 'schedule not expired',
    check: (f) =>
      f.campaign.scheduledEndAt !== null && f.campaign.scheduledEndAt.getTime() <= f.now.getTime()
        ? fail('campaign_schedule_expired')
        : null,
  },
  {
    name: 'voice leg has an agent',
    check: (f) => {
      if (!hasVoiceLeg(f.campaign.channel)) return null;
      if (f.campaign.agentId === null) return fail('campaign_channel_needs_agent');
      if (f.agent === null || f.agent.status !== 'ACTIVE') {
        return fail('agent_not_found_or_not_provisioned', f.agent ? `the agent is ${f.agent.status}` : 'the agent no longer exists');
      }
      return null;
    },
  },
  {
    name: 'message leg has a sender and an approved template',
    check: (f) => {
      if (!hasMessageLeg(f.campaign.channel)) return null;
      if (!f.whatsapp.hasSender) return fail('campaign_channel_needs_sender');
      for (const template of [f.whatsapp.template, ...(f.metricTemplates ?? [])]) {
        const refusal = templateRefusal(template);
        if (refusal) return refusal;
      }
      return null;
    },
  },
  {
    name: 'email has a sender and a template',
    check: (f) => {
      if (f.campaign.channel !== 'EMAIL') return null;
      if (!f.email.hasSender) return fail('campaign_channel_needs_email_sender');
      if (!f.email.hasTemplate) return fail('campaign_channel_needs_email_template');
      return null;
    },
  },
  {
    name: 'custom channel has a workflow',
    check: (f) => (f.campaign.channel === 'CUSTOM' && f.campaign.workflowId === null ? fail('campaign_channel_needs_workflow') : null),
  },
  {
    name: 'journey workflow active',
    check: (f) =>
      f.campaign.workflowId !== null && f.workflowStatus !== 'ACTIVE'
        ? fail('campaign_workflow_not_active', f.workflowStatus ? `the workflow is ${f.workflowStatus}` : 'the workflow no longer exists')
        : null,
  },
  {
    name: 'inbound campaign answers on usable numbers of its agent',
    check: (f) => (f.campaign.source === 'INBOUND' ? inboundFailure(f) : null),
  },
  {
    name: 'voice leg has phone numbers',
    check: (f) =>
      f.campaign.source !== 'INBOUND' && hasVoiceLeg(f.campaign.channel) && f.usablePhoneNumbers === 0 ? fail('campaign_no_phone_numbers') : null,
  },
  {
    name: 'list campaigns have pending contacts',
    check: (f) => (LIST_SOURCES.includes(f.campaign.source) && f.contactsWithWorkLeft === 0 ? fail('campaign_no_pending_contacts') : null),
  },
  {
    name: 'outbound campaign does not use an inbound agent without contacts',
    check: (f) =>
      f.campaign.source !== 'INBOUND' && f.agent?.agentType === 'INBOUND' && f.totalContacts === 0
        ? fail('campaign_is_inbound_misconfigured')
        : null,
  },
  {
    name: 'reservation within the allocation',
    check: (f) =>
      !Number.isInteger(f.requestedConcurrency) || f.requestedConcurrency < 1 || f.requestedConcurrency > f.workspace.concurrency
        ? fail('invalid_reserved_concurrency', `reservedConcurrency must be from 1 to ${f.workspace.concurrency}`)
        : null,
  },
  {
    name: 'running reservations within the allocation',
    check: (f) =>
      f.reservedByOthers + f.requestedConcurrency > f.workspace.concurrency
        ? fail(
            'reserved_exceeds_allocation',
            `running campaigns already reserve ${f.reservedByOthers} of ${f.workspace.concurrency}; ${f.requestedConcurrency} more does not fit`,
          )
        : null,
  },
];

/** Every code a start check can fail with (start-checks.spec.ts keeps it equal to the fail() calls above). */
export const START_CHECK_CODES: readonly ErrorCode[] = [
  'workspace_not_active',
  'activity_frozen',
  'insufficient_credits',
  'campaign_schedule_expired',
  'campaign_channel_needs_agent',
  'agent_not_found_or_not_provisioned',
  'campaign_channel_needs_sender',
  'campaign_channel_needs_template',
  'outreach_template_not_approved',
  'outreach_template_needs_runtime_context',
  'campaign_channel_needs_email_sender',
  'campaign_channel_needs_email_template',
  'campaign_channel_needs_workflow',
  'campaign_workflow_not_active',
  'inbound_agent_has_no_number',
  'inbound_agent_has_many_numbers',
  'inbound_did_unavailable',
  'inbound_did_has_no_agent',
  'inbound_did_already_in_campaign',
  'campaign_no_phone_numbers',
  'campaign_no_pending_contacts',
  'campaign_is_inbound_misconfigured',
  'invalid_reserved_concurrency',
  'reserved_exceeds_allocation',
];

/** Throws the first failing start check as an AppError. */
export function assertStartChecks(facts: StartFacts): void {
  for (const { check } of START_CHECKS) {
    const failure = check(facts);
    if (failure) throw new AppError(failure.code, failure.message ? { message: failure.message } : {});
  }
}
