import { AppError } from '@outreach/core';
import {
  CampaignChannel,
  CampaignSource,
  ExtractionMode,
  hasMessageLeg,
  JOURNEY_SOURCES,
} from './campaign-kinds';
import { CampaignSettings, CAMPAIGN_SETTING_KEYS, withDefaultSettings } from './campaign-settings';
import {
  assertOperationAllowed,
  CampaignEvent,
  CampaignKind,
  CampaignOperation,
  CampaignStatus,
  nextStatus,
} from './campaign-state-machine';
import {
  assertCustomExtractionKeys,
  assertEvaluationMetrics,
  effectiveExtractionKeys,
  EvaluationMetric,
  ExtractionKey,
} from './extraction-keys';
import { assertOutreachRules } from './outreach-rules';

/** Started and not finished: where a CRM_WEBHOOK campaign still takes CRM imports. */
const LIVE_STATUSES: readonly CampaignStatus[] = ['RUNNING', 'PAUSED', 'CREDIT_EXHAUSTED'];

/** The pause reason of a campaign a user paused (POST /campaigns/{id}/pause). */
export const PAUSED_BY_USER = 'user';

export interface CampaignProps {
  id: string;
  workspaceId: string;
  name: string;
  description: string | null;
  status: CampaignStatus;
  channel: CampaignChannel;
  source: CampaignSource;
  agentId: string | null;
  campaignTypeId: string | null;
  workflowId: string | null;
  defaultCrmConnectionId: string | null;
  defaultCrmSegmentId: string | null;
  /** Default reservation for the next start (the start body overrides it). */
  reservedConcurrency: number;
  allowBurst: boolean;
  timezone: string;
  scheduledStartAt: Date | null;
  scheduledEndAt: Date | null;
  startedAt: Date | null;
  endedAt: Date | null;
  /**
   * Why a PAUSED campaign is paused: `user` (POST …/pause) or the service's reason
   * (`no_usable_caller_id`, …; decisions.md 12.13). Null in every other status.
   */
  pauseReason: string | null;
  /** When the campaign last went RUNNING (start, resume, restart): the circuit breaker counts from there (decisions.md 16.26). */
  runningSince: Date | null;
  uploadId: string | null;
  phoneColumn: string | null;
  altPhoneColumns: string[];
  /** Default calling code for numbers written without one, e.g. "+91". */
  countryCode: string | null;
  removeInvalidRows: boolean;
  variableMap: Record<string, string>;
  customExtractionKeys: ExtractionKey[];
  customExtractionKeysMode: ExtractionMode;
  evaluationMetrics: EvaluationMetric[];
  settings: CampaignSettings;
  createdAt: Date;
  updatedAt: Date;
}

/** Fields a client sets on create or changes with PATCH (all optional on PATCH). */
export interface CampaignChanges extends Partial<CampaignSettings> {
  name?: string;
  description?: string | null;
  channel?: CampaignChannel;
  source?: CampaignSource;
  agentId?: string | null;
  campaignTypeId?: string | null;
  workflowId?: string | null;
  defaultCrmConnectionId?: string | null;
  defaultCrmSegmentId?: string | null;
  reservedConcurrency?: number;
  allowBurst?: boolean;
  timezone?: string;
  scheduledStartAt?: Date | null;
  scheduledEndAt?: Date | null;
  uploadId?: string | null;
  phoneColumn?: string | null;
  altPhoneColumns?: string[];
  countryCode?: string | null;
  removeInvalidRows?: boolean;
  variableMap?: Record<string, string>;
  customExtractionKeys?: ExtractionKey[];
  customExtractionKeysMode?: ExtractionMode;
  evaluationMetrics?: EvaluationMetric[];
}

/** Fields that shape the audience: DRAFT-only (decisions.md 13.1). */
export const AUDIENCE_FIELDS = [
  'source',
  'channel',
  'uploadId',
  'phoneColumn',
  'altPhoneColumns',
  'customExtractionKeys',
  'customExtractionKeysMode',
] as const satisfies ReadonlyArray<keyof CampaignChanges>;

/**
 * The live edits (decisions.md 34.1): the fields each route changes. They are allowed in every
 * unfinished status, RUNNING included (CAMPAIGN_PERMISSIONS), and take effect at the next dispatch run.
 */
export const LIVE_EDIT_FIELDS = {
  editSchedule: [
    'timezone',
    'dailyWindowStart',
    'dailyWindowEnd',
    'dialDays',
    'scheduledStartAt',
    'scheduledEndAt',
    'dailyDialCap',
    'dailyMessageCap',
    'recipientHours',
    'skipHolidays',
  ],
  editOutreach: ['outreachRules', 'whatsappOutreachTemplateId', 'whatsappAgentTemplateIds'],
  editMetrics: ['evaluationMetrics'],
} as const satisfies Record<LiveEdit, ReadonlyArray<keyof CampaignChanges>>;
export type LiveEdit = Extract<CampaignOperation, 'editSchedule' | 'editOutreach' | 'editMetrics'>;

/** What the rules need to know beyond the campaign itself. */
export interface CampaignRuleContext {
  /** Extraction keys of the campaign type the campaign will have after the change ([] for none). */
  typeKeys: readonly ExtractionKey[];
  /** Contacts or API deliveries exist: the source is locked. */
  hasAudience: boolean;
}

export interface CampaignDraft extends CampaignChanges {
  name: string;
  channel: CampaignChannel;
  source: CampaignSource;
}

const TOP_LEVEL_KEYS = new Set<string>([
  'name',
  'description',
  'channel',
  'source',
  'agentId',
  'campaignTypeId',
  'workflowId',
  'defaultCrmConnectionId',
  'defaultCrmSegmentId',
  'reservedConcurrency',
  'allowBurst',
  'timezone',
  'scheduledStartAt',
  'scheduledEndAt',
  'uploadId',
  'phoneColumn',
  'altPhoneColumns',
  'countryCode',
  'removeInvalidRows',
  'variableMap',
  'customExtractionKeys',
  'customExtractionKeysMode',
  'evaluationMetrics',
]);
const SETTING_KEYS = new Set<string>(CAMPAIGN_SETTING_KEYS);

/**
 * The campaign aggregate: its configuration, its status and the rules that guard both. Every
 * status change goes through the transition table (campaign-state-machine.ts); a refused
 * operation throws before anything changes.
 */
export class Campaign {
  private constructor(private props: CampaignProps) {}

  static create(input: { id: string; workspaceId: string; draft: CampaignDraft; context: CampaignRuleContext; now: Date }): Campaign {
    const { draft, now } = input;
    const campaign = new Campaign({
      id: input.id,
      workspaceId: input.workspaceId,
      name: draft.name,
      description: null,
      status: 'DRAFT',
      channel: draft.channel,
      source: draft.source,
      agentId: null,
      campaignTypeId: null,
      workflowId: null,
      defaultCrmConnectionId: null,
      defaultCrmSegmentId: null,
      reservedConcurrency: 1,
      allowBurst: false,
      timezone: 'UTC',
      scheduledStartAt: null,
      scheduledEndAt: null,
      startedAt: null,
      endedAt: null,
      pauseReason: null,
      runningSince: null,
      uploadId: null,
      phoneColumn: null,
      altPhoneColumns: [],
      countryCode: null,
      removeInvalidRows: false,
      variableMap: {},
      customExtractionKeys: [],
      customExtractionKeysMode: 'APPEND',
      evaluationMetrics: [],
      settings: withDefaultSettings(null),
      createdAt: now,
      updatedAt: now,
    });
    campaign.validateAndAssign(draft, { ...input.context, hasAudience: false });
    return campaign;
  }

  static restore(props: CampaignProps): Campaign {
    return new Campaign(structuredClone(props));
  }

  get id(): string {
    return this.props.id;
  }

  get workspaceId(): string {
    return this.props.workspaceId;
  }

  get status(): CampaignStatus {
    return this.props.status;
  }

  get kind(): CampaignKind {
    return { inbound: this.props.source === 'INBOUND', journey: this.props.workflowId !== null };
  }

  toProps(): CampaignProps {
    return structuredClone(this.props);
  }

  /** The type's keys combined with the custom keys per customExtractionKeysMode. */
  effectiveExtractionKeys(typeKeys: readonly ExtractionKey[]): ExtractionKey[] {
    return effectiveExtractionKeys(typeKeys, this.props.customExtractionKeys, this.props.customExtractionKeysMode);
  }

  // ---- status-preserving operations -------------------------------------------------------

  assertAllowed(operation: CampaignOperation): void {
    assertOperationAllowed(this.props.status, operation, this.kind);
  }

  /**
   * A CRM import adds contacts like addContacts (DRAFT only, 400 campaign_not_in_draft), and is also
   * allowed on a live CRM_WEBHOOK campaign (RUNNING, PAUSED or CREDIT_EXHAUSTED): the contract's
   * state table.
   */
  assertCrmImportAllowed(): void {
    if (this.props.source === 'CRM_WEBHOOK' && LIVE_STATUSES.includes(this.props.status)) return;
    this.assertAllowed('addContacts');
  }

  /**
   * PATCH: editable in DRAFT, PAUSED and CREDIT_EXHAUSTED (else 409 campaign_not_draft); audience
   * fields only in DRAFT; the source locks once contacts or API deliveries exist.
   */
  update(changes: CampaignChanges, context: CampaignRuleContext, now: Date): void {
    // The kind first (decisions.md 12.2): an INBOUND campaign keeps its source and takes no upload (decisions.md 36.2).
    if (this.kind.inbound && ((changes.source !== undefined && changes.source !== 'INBOUND') || (changes.uploadId !== undefined && changes.uploadId !== null))) {
      throw new AppError('inbound_campaign_action_not_supported', {
        message: changes.uploadId ? 'INBOUND campaigns take no uploads: their contacts are their callers' : 'the source of an INBOUND campaign cannot be switched',
      });
    }
    this.assertAllowed('edit');
    const audience = AUDIENCE_FIELDS.filter((field) => changes[field] !== undefined);
    if (audience.length > 0 && this.props.status !== 'DRAFT') {
      throw new AppError('campaign_not_draft', {
        message: `${audience.join(', ')} can only change while the campaign is DRAFT`,
      });
    }
    this.validateAndAssign(changes, context);
    this.props.updatedAt = now;
  }

  /** PUT /campaigns/{id}/custom-keys: DRAFT only. */
  replaceCustomKeys(keys: ExtractionKey[], mode: ExtractionMode | undefined, context: CampaignRuleContext, now: Date): void {
    this.assertAllowed('replaceCustomKeys');
    this.validateAndAssign({ customExtractionKeys: keys, ...(mode ? { customExtractionKeysMode: mode } : {}) }, context);
    this.props.updatedAt = now;
  }

  /**
   * A live edit (PUT …/schedule, …/outreach, …/metrics): allowed in DRAFT, RUNNING, PAUSED and
   * CREDIT_EXHAUSTED (else 409 campaign_not_editable), only the route's own fields, under the same
   * rules as PATCH. `channel` may be sent to the outreach edit but never changes
   * (campaign_channel_switch_not_supported); rules need a channel with replies
   * (campaign_channel_has_no_rules).
   */
  editLive(edit: LiveEdit, changes: CampaignChanges & { channel?: CampaignChannel }, context: CampaignRuleContext, now: Date): void {
    this.assertAllowed(edit);
    const allowed: readonly string[] = LIVE_EDIT_FIELDS[edit];
    const { channel, ...fields } = changes;
    const stray = Object.entries(fields).filter(([key, value]) => value !== undefined && !allowed.includes(key)).map(([key]) => key);
    if (stray.length > 0) throw new Error(`${edit} cannot change ${stray.join(', ')}`);
    if (channel !== undefined) {
      if (edit !== 'editOutreach') throw new Error(`${edit} cannot change channel`);
      if (channel !== this.props.channel) {
        throw new AppError('campaign_channel_switch_not_supported', {
          message: `the channel is ${this.props.channel}; it can change only by PATCH while the campaign is DRAFT`,
        });
      }
    }
    if (fields.outreachRules !== undefined) assertOutreachRules(this.props.channel, fields.outreachRules);
    this.validateAndAssign(fields, context);
    this.props.updatedAt = now;
  }

  /**
   * POST …/remessage (decisions.md 34.6): an INBOUND campaign refuses it (400
   * inbound_campaign_action_not_supported), a campaign without a message leg (WhatsApp or, since
   * 33.19, email) has nothing to send again (409 campaign_channel_not_message_followup), and only a
   * RUNNING campaign sends (400 campaign_not_running): the kind, the channel, then the status.
   */
  assertCanRemessage(): void {
    if (!this.kind.inbound && !hasMessageLeg(this.props.channel) && this.props.channel !== 'EMAIL') {
      throw new AppError('campaign_channel_not_message_followup', { message: `a ${this.props.channel} campaign has no message leg to send again` });
    }
    this.assertAllowed('remessage');
  }

  /** Applies changes after checking every rule against the resulting campaign; nothing changes on a refusal. */
  private validateAndAssign(changes: CampaignChanges, context: CampaignRuleContext): void {
    const current = this.props;
    const next: CampaignProps = { ...current, settings: { ...current.settings } };
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      if (TOP_LEVEL_KEYS.has(key)) (next as unknown as Record<string, unknown>)[key] = structuredClone(value);
      else if (SETTING_KEYS.has(key)) (next.settings as unknown as Record<string, unknown>)[key] = structuredClone(value);
      else throw new Error(`unknown campaign field ${key}`);
    }

    if (changes.source !== undefined && changes.source !== current.source && context.hasAudience) {
      throw new AppError('campaign_source_locked', {
        message: 'the source cannot change once the campaign has contacts or API deliveries',
      });
    }
    if (next.workflowId !== null && !JOURNEY_SOURCES.includes(next.source)) {
      throw new AppError('journey_campaign_source_unsupported', {
        message: `journey campaigns accept only ${JOURNEY_SOURCES.join(' or ')} sources`,
      });
    }
    if (next.source === 'INBOUND' && (next.channel !== 'VOICE' || (changes.uploadId !== undefined && changes.uploadId !== null))) {
      throw new AppError('inbound_campaign_action_not_supported', {
        message: next.channel !== 'VOICE' ? 'INBOUND campaigns answer calls: channel VOICE only' : 'INBOUND campaigns take no uploads: their contacts are their callers',
      });
    }
    if (next.source === 'CRM_WEBHOOK' && !next.defaultCrmConnectionId) {
      throw new AppError('default_crm_connection_required');
    }
    if (changes.customExtractionKeys !== undefined) assertCustomExtractionKeys(next.customExtractionKeys);
    const keysChanged =
      changes.customExtractionKeys !== undefined ||
      changes.customExtractionKeysMode !== undefined ||
      changes.campaignTypeId !== undefined ||
      changes.evaluationMetrics !== undefined;
    if (keysChanged) {
      const extraction = effectiveExtractionKeys(context.typeKeys, next.customExtractionKeys, next.customExtractionKeysMode);
      assertEvaluationMetrics(next.evaluationMetrics, extraction);
    }
    if (next.scheduledStartAt && next.scheduledEndAt && next.scheduledEndAt.getTime() <= next.scheduledStartAt.getTime()) {
      throw new AppError('invalid_body', {
        issues: [{ path: 'scheduledEndAt', message: 'scheduledEndAt must be after scheduledStartAt' }],
      });
    }
    this.props = next;
  }

  // ---- transitions ------------------------------------------------------------------------

  /** Throws the refusal of `event` from the current status, changing nothing. */
  assertCan(event: CampaignEvent): void {
    nextStatus(this.props.status, event, this.kind);
  }

  /** start / resume / restart / reopen (decisions.md 35.1): the start checks have passed; the campaign runs with this reservation. */
  run(event: 'start' | 'resume' | 'restart' | 'reopen', reservation: { reservedConcurrency: number; allowBurst: boolean }, now: Date): void {
    this.props.status = nextStatus(this.props.status, event, this.kind);
    this.props.reservedConcurrency = reservation.reservedConcurrency;
    this.props.allowBurst = reservation.allowBurst;
    if (event === 'restart' || this.props.startedAt === null) this.props.startedAt = now;
    this.props.endedAt = null;
    this.props.pauseReason = null;
    this.props.runningSince = now;
    this.props.updatedAt = now;
  }

  /** RUNNING → PAUSED, by a user (`user`) or by the service for `reason`. */
  pause(now: Date, reason: string = PAUSED_BY_USER): void {
    this.props.status = nextStatus(this.props.status, 'pause', this.kind);
    this.props.pauseReason = reason;
    this.props.updatedAt = now;
  }

  stop(now: Date): void {
    this.props.status = nextStatus(this.props.status, 'stop', this.kind);
    this.props.endedAt = now;
    this.props.pauseReason = null;
    this.props.updatedAt = now;
  }

  /** Automatic: every contact is final (list sources) or scheduledEndAt passed. */
  complete(now: Date): void {
    this.props.status = nextStatus(this.props.status, 'complete', this.kind);
    this.props.endedAt = now;
    this.props.pauseReason = null;
    this.props.updatedAt = now;
  }

  /** Automatic: the wallet ran dry and no trial is active. */
  exhaustCredit(now: Date): void {
    this.props.status = nextStatus(this.props.status, 'exhaustCredit', this.kind);
    this.props.pauseReason = null;
    this.props.updatedAt = now;
  }
}
