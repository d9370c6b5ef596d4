import { AppError, ErrorCode } from '@outreach/core';

/** decisions.md 12.1. COMPLETED and CANCELED are terminal ("finished"). */
export const CAMPAIGN_STATUSES = ['DRAFT', 'RUNNING', 'PAUSED', 'CREDIT_EXHAUSTED', 'COMPLETED', 'CANCELED'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const FINISHED_STATUSES: readonly CampaignStatus[] = ['COMPLETED', 'CANCELED'];

export function isFinished(status: CampaignStatus): boolean {
  return FINISHED_STATUSES.includes(status);
}

/** Events that move a campaign to another status. */
export type CampaignEvent = 'start' | 'pause' | 'resume' | 'stop' | 'restart' | 'reopen' | 'complete' | 'exhaustCredit';

/** Operations that keep the status but are allowed only in some statuses. */
export type CampaignOperation =
  | 'edit'
  | 'editAudience'
  | 'replaceCustomKeys'
  | 'addContacts'
  | 'delete'
  | 'detachPhoneNumber'
  | 'retryContact'
  | 'reengage'
  | 'finishInterrupted'
  | 'editSchedule'
  | 'editOutreach'
  | 'editMetrics'
  | 'remessage';

export interface Transition {
  from: readonly CampaignStatus[];
  to: CampaignStatus;
  /** The answer when the current status is not in `from`. */
  refusal: ErrorCode;
}

export interface Permission {
  in: readonly CampaignStatus[];
  refusal: ErrorCode;
}

/**
 * THE transition table. Start checks (workspace, wallet, channel, numbers, contacts, concurrency)
 * are evaluated by the application before it applies start/resume/restart; this table only says
 * which statuses an event may leave from.
 */
export const CAMPAIGN_TRANSITIONS: Readonly<Record<CampaignEvent, Transition>> = {
  start: { from: ['DRAFT', 'PAUSED', 'CREDIT_EXHAUSTED'], to: 'RUNNING', refusal: 'campaign_not_startable' },
  pause: { from: ['RUNNING'], to: 'PAUSED', refusal: 'campaign_not_running' },
  resume: { from: ['PAUSED'], to: 'RUNNING', refusal: 'campaign_not_paused' },
  stop: { from: ['DRAFT', 'RUNNING', 'PAUSED', 'CREDIT_EXHAUSTED'], to: 'CANCELED', refusal: 'campaign_already_terminal' },
  restart: { from: ['COMPLETED', 'CANCELED'], to: 'RUNNING', refusal: 'campaign_not_restartable' },
  // A re-engage or finish-interrupted of a COMPLETED campaign runs it again for the contacts it
  // requeued, after the start checks (decisions.md 35.1).
  reopen: { from: ['COMPLETED'], to: 'RUNNING', refusal: 'campaign_not_reengageable' },
  // Automatic, raised by the engine: all contacts final (list sources) or scheduledEndAt passed.
  complete: { from: ['RUNNING'], to: 'COMPLETED', refusal: 'campaign_not_running' },
  // Automatic: wallet balance ≤ 0 and no active trial. Dispatch stops; in-flight attempts finish.
  exhaustCredit: { from: ['RUNNING'], to: 'CREDIT_EXHAUSTED', refusal: 'campaign_not_running' },
};

/** Where the live edits are allowed: every status but the finished ones (decisions.md 34.1). */
const LIVE_EDIT_STATUSES: readonly CampaignStatus[] = ['DRAFT', 'RUNNING', 'PAUSED', 'CREDIT_EXHAUSTED'];

/** Where status-preserving operations are allowed (spec: States and transitions; decisions.md 12.3). */
export const CAMPAIGN_PERMISSIONS: Readonly<Record<CampaignOperation, Permission>> = {
  edit: { in: ['DRAFT', 'PAUSED', 'CREDIT_EXHAUSTED'], refusal: 'campaign_not_draft' },
  // source, channel, uploadId, phoneColumn, altPhoneColumns, custom extraction keys and their mode
  editAudience: { in: ['DRAFT'], refusal: 'campaign_not_draft' },
  replaceCustomKeys: { in: ['DRAFT'], refusal: 'campaign_not_draft' },
  addContacts: { in: ['DRAFT'], refusal: 'campaign_not_in_draft' },
  delete: { in: ['DRAFT', 'CANCELED', 'COMPLETED'], refusal: 'campaign_delete_active' },
  detachPhoneNumber: { in: ['DRAFT', 'PAUSED', 'CREDIT_EXHAUSTED', 'COMPLETED', 'CANCELED'], refusal: 'campaign_running_no_remove' },
  // A contact retry needs a campaign that has started and is not finished.
  retryContact: { in: ['RUNNING', 'PAUSED', 'CREDIT_EXHAUSTED'], refusal: 'campaign_not_active' },
  // Finished contacts start over (decisions.md 35.1): a campaign that has run and was not stopped.
  // A COMPLETED one goes RUNNING again (`reopen`); PAUSED and CREDIT_EXHAUSTED keep their status.
  reengage: { in: ['RUNNING', 'PAUSED', 'CREDIT_EXHAUSTED', 'COMPLETED'], refusal: 'campaign_not_reengageable' },
  finishInterrupted: { in: ['RUNNING', 'PAUSED', 'CREDIT_EXHAUSTED', 'COMPLETED'], refusal: 'campaign_not_reengageable' },
  // Live edits (PUT …/schedule, …/outreach, …/metrics): every unfinished status, RUNNING included;
  // they take effect at the next dispatch run (decisions.md 34.1).
  editSchedule: { in: LIVE_EDIT_STATUSES, refusal: 'campaign_not_editable' },
  editOutreach: { in: LIVE_EDIT_STATUSES, refusal: 'campaign_not_editable' },
  editMetrics: { in: LIVE_EDIT_STATUSES, refusal: 'campaign_not_editable' },
  // POST …/remessage sends now, so only a RUNNING campaign (a paused one sends nothing; decisions.md 34.6).
  remessage: { in: ['RUNNING'], refusal: 'campaign_not_running' },
};

/** What kind of campaign it is, as far as the rules care. */
export interface CampaignKind {
  inbound: boolean;
  journey: boolean;
}

/** Kind-specific refusals, checked before the status (the operation is invalid for the kind at all). */
const INBOUND_UNSUPPORTED: ReadonlySet<CampaignEvent | CampaignOperation> = new Set([
  'pause',
  'resume',
  'restart',
  'addContacts',
  'reengage',
  'finishInterrupted',
  'editOutreach',
  'remessage',
]);
const JOURNEY_UNSUPPORTED: ReadonlySet<CampaignEvent | CampaignOperation> = new Set(['restart', 'retryContact']);

function assertKindAllows(kind: CampaignKind, action: CampaignEvent | CampaignOperation): void {
  if (kind.inbound && INBOUND_UNSUPPORTED.has(action)) {
    throw new AppError('inbound_campaign_action_not_supported', { message: `${action} is not supported for INBOUND campaigns` });
  }
  if (kind.journey && JOURNEY_UNSUPPORTED.has(action)) {
    throw new AppError('journey_campaign_action_unsupported', { message: `${action} is not supported for journey campaigns` });
  }
}

/**
 * Every code an event or operation can be refused with, in the order they are checked (the kind,
 * then the status): what the routes that apply it document (decisions.md 1.14).
 */
export function refusalsOf(action: CampaignEvent | CampaignOperation): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (INBOUND_UNSUPPORTED.has(action)) codes.push('inbound_campaign_action_not_supported');
  if (JOURNEY_UNSUPPORTED.has(action)) codes.push('journey_campaign_action_unsupported');
  const table = action in CAMPAIGN_TRANSITIONS ? CAMPAIGN_TRANSITIONS[action as CampaignEvent] : CAMPAIGN_PERMISSIONS[action as CampaignOperation];
  codes.push(table.refusal);
  return codes;
}

/** The status an event leads to from `status`, or the refusal (an AppError with the spec code). */
export function nextStatus(status: CampaignStatus, event: CampaignEvent, kind: CampaignKind): CampaignStatus {
  assertKindAllows(kind, event);
  const transition = CAMPAIGN_TRANSITIONS[event];
  if (!transition.from.includes(status)) {
    throw new AppError(transition.refusal, { message: `cannot ${event} a ${status} campaign` });
  }
  return transition.to;
}

/** Throws the operation's refusal when `status` does not allow it. */
export function assertOperationAllowed(status: CampaignStatus, operation: CampaignOperation, kind: CampaignKind): void {
  assertKindAllows(kind, operation);
  const permission = CAMPAIGN_PERMISSIONS[operation];
  if (!permission.in.includes(status)) {
    throw new AppError(permission.refusal, { message: `${operation} is not allowed on a ${status} campaign` });
  }
}
