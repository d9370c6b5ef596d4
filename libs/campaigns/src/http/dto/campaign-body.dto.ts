import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { markStoredNoEffect } from '@outreach/platform';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { CAMPAIGN_CHANNELS, CAMPAIGN_SOURCES, EDITABLE_CAMPAIGN_SOURCES, EXTRACTION_MODES } from '../../domain/campaign-kinds';
import { EvaluationMetricDto, CampaignExtractionKeyDto } from './extraction.dto';
import { RecipientHoursSetting } from '../../domain/recipient-hours';
import { IsCallingCode, IsRecipientHours, IsStringRecord, IsTemplateByMetric, IsTimeZone, Nullable, Optional } from './validators';

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const HH_MM_MESSAGE = 'must be a time HH:MM (00:00-23:59)';

/**
 * The campaign's editable fields, shared by create and PATCH. The first block holds the 36 bounds
 * the spec lists for the update body, in its order, mapped to fields as decisions.md 13.3 decides (the
 * numbers in the comments). Every bound lives here and nowhere else.
 */
export class CampaignFieldsDto {
  // #1 string max 280
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 280 })
  @Nullable()
  @IsString()
  @MaxLength(280)
  description?: string | null;

  // #2 string min 1
  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, description: 'Voice agent (needed by voice channels)' })
  @Nullable()
  @IsString()
  @MinLength(1)
  agentId?: string | null;

  // #3 integer 1-100000
  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 1, maximum: 100000, description: 'Messages per day; null = no cap' })
  @Nullable()
  @IsInt()
  @Min(1)
  @Max(100000)
  dailyMessageCap?: number | null;

  // #4 array max 20
  @ApiPropertyOptional({ type: [String], maxItems: 20, description: 'Members notified about the campaign' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 100, { each: true })
  notificationUserIds?: string[];

  // #5 integer 1-10
  @ApiPropertyOptional({ minimum: 1, maximum: 10, description: 'Default reservation for the next start (the start body overrides it)' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(10)
  reservedConcurrency?: number;

  // #6 pattern ^\+\d{1,3}$ …
  @ApiPropertyOptional({ type: String, nullable: true, pattern: '^\\+\\d{1,3}$', example: '+91', description: 'Default calling code for numbers written without one' })
  @Nullable()
  @IsString()
  @Matches(/^\+\d{1,3}$/, { message: 'countryCode must be + and 1-3 digits, e.g. +91' })
  @IsCallingCode()
  countryCode?: string | null;

  // … with array max 5
  @ApiPropertyOptional({ type: [String], maxItems: 5, description: 'Upload columns with alternative phone numbers' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(5)
  @IsString({ each: true })
  @Length(1, 200, { each: true })
  altPhoneColumns?: string[];

  // #7 two HH:MM strings
  @ApiPropertyOptional({ pattern: '^\\d{2}:\\d{2}$', example: '09:00', description: 'Daily window start, campaign timezone' })
  @Optional()
  @IsString()
  @Matches(HH_MM, { message: `dailyWindowStart ${HH_MM_MESSAGE}` })
  dailyWindowStart?: string;

  @ApiPropertyOptional({ pattern: '^\\d{2}:\\d{2}$', example: '18:00', description: 'Daily window end, campaign timezone' })
  @Optional()
  @IsString()
  @Matches(HH_MM, { message: `dailyWindowEnd ${HH_MM_MESSAGE}` })
  dailyWindowEnd?: string;

  // #8 integer 0-10
  @ApiPropertyOptional({ minimum: 0, maximum: 10 })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(10)
  retryCount?: number;

  // #9 integer 5-43200
  @ApiPropertyOptional({ minimum: 5, maximum: 43200, description: 'Minutes between two calls to the same contact' })
  @Optional()
  @IsInt()
  @Min(5)
  @Max(43200)
  cooldownMinutes?: number;

  // #10 array max 10, #11 integer 1-43200
  @ApiPropertyOptional({ type: [Number], maxItems: 10, description: 'Minutes before each retry (1-43200 each)' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(43200, { each: true })
  retryDelaysMinutes?: number[];

  // #12 integer 0-100
  @ApiPropertyOptional({ minimum: 0, maximum: 100, description: 'Share of the reserved lines retries (and follow-ups, churn re-contacts) may hold while first dials wait; above 0 at least one line; idle lines always go to due retries (docs/decisions.md 35.7)' })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(100)
  retryConcurrencyPercent?: number;

  // #13 array max 40
  @ApiPropertyOptional({ type: [CampaignExtractionKeyDto], maxItems: 40 })
  @Optional()
  @IsArray()
  @ArrayMaxSize(40)
  @ValidateNested({ each: true })
  @Type(() => CampaignExtractionKeyDto)
  customExtractionKeys?: CampaignExtractionKeyDto[];

  // #14 enum APPEND, REPLACE
  @ApiPropertyOptional({ enum: EXTRACTION_MODES, description: 'APPEND: type keys then custom keys; REPLACE: custom keys only' })
  @Optional()
  @IsIn(EXTRACTION_MODES)
  customExtractionKeysMode?: 'APPEND' | 'REPLACE';

  // #15 integers 1-10
  @ApiPropertyOptional({ minimum: 1, maximum: 10, description: 'Follow-up calls per run for a lead whose call said interested (followupEnabled; docs/decisions.md 35.3)' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(10)
  followupMaxAttempts?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 10, description: 'Churn re-contacts per run of a contact lost after every retry (churnEnabled; docs/decisions.md 35.4)' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(10)
  churnMaxAttempts?: number;

  // #16 integer 1-2160
  @ApiPropertyOptional({ minimum: 1, maximum: 2160, description: 'Hours before a churn re-contact when churnDelaysHours has no entry for it' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(2160)
  churnIntervalHours?: number;

  // #17 array max 10, #18 integer 1-2160
  @ApiPropertyOptional({ type: [Number], maxItems: 10, description: 'Hours before each churn attempt (1-2160 each)' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(2160, { each: true })
  churnDelaysHours?: number[];

  // #19 string max 500
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 })
  @Nullable()
  @IsString()
  @MaxLength(500)
  goal?: string | null;

  // #20 string max 200000
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200000 })
  @Nullable()
  @IsString()
  @MaxLength(200000)
  briefText?: string | null;

  // #21 string max 255
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255 })
  @Nullable()
  @IsString()
  @MaxLength(255)
  briefFileName?: string | null;

  // #22 integer 1-5
  @ApiPropertyOptional({ minimum: 1, maximum: 5 })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(5)
  incompleteRetryMaxAttempts?: number;

  // #23 integer 1-1440
  @ApiPropertyOptional({ minimum: 1, maximum: 1440 })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(1440)
  incompleteRetryIntervalMinutes?: number;

  // #24 array max 5, #25 integer 1-1440
  @ApiPropertyOptional({ type: [Number], maxItems: 5, description: 'Minutes before each retry of an interrupted call (1-1440 each)' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(5)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(1440, { each: true })
  incompleteRetryDelaysMinutes?: number[];

  // #26 integer 5-300
  @ApiPropertyOptional({ minimum: 5, maximum: 300, description: 'A call shorter than this counts as interrupted' })
  @Optional()
  @IsInt()
  @Min(5)
  @Max(300)
  incompleteCallSeconds?: number;

  // #27 integer 0-3
  @ApiPropertyOptional({ minimum: 0, maximum: 3, description: 'Referrals captured on a call join list-sourced campaigns as new contacts while the referring contact is less deep than this; 0 captures none (docs/decisions.md 35.6)' })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(3)
  referralMaxDepth?: number;

  // #28 integer 1-10
  @ApiPropertyOptional({ minimum: 1, maximum: 10 })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(10)
  messageRetryMaxAttempts?: number;

  // #29 integer 1-604800
  @ApiPropertyOptional({ minimum: 1, maximum: 604800 })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(604800)
  messageRetryIntervalSeconds?: number;

  // #30 array max 10, #31 integer 1-604800
  @ApiPropertyOptional({ type: [Number], maxItems: 10, description: 'Seconds before each message retry (1-604800 each)' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(604800, { each: true })
  messageRetryDelaysSeconds?: number[];

  // #32 integer 1-2592000
  @ApiPropertyOptional({ minimum: 1, maximum: 2592000 })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(2592000)
  messageRetryWindowSeconds?: number;

  // #33 integer 1-100
  @ApiPropertyOptional({ minimum: 1, maximum: 100 })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(100)
  messageRetryTransientMaxAttempts?: number;

  // #34 integer 1-100000
  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 1, maximum: 100000, description: 'Calls per day; null = no cap' })
  @Nullable()
  @IsInt()
  @Min(1)
  @Max(100000)
  dailyDialCap?: number | null;

  // Issue 17 (not a contract bound): the circuit breaker (decisions.md 16.26)
  @ApiPropertyOptional({ type: 'integer', minimum: 10, maximum: 500, default: 40, description: 'Circuit breaker: how many of the latest settled calls (since the campaign last went RUNNING) are judged' })
  @Optional()
  @IsInt()
  @Min(10)
  @Max(500)
  circuitBreakerWindow?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 50, description: 'Circuit breaker: more than this percentage of carrier failures among them pauses the campaign (pauseReason circuit_open); 100 never trips' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(100)
  circuitBreakerFailurePercent?: number;

  // Issue 17 (not a contract bound): the spend guard (decisions.md 29.1)
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: 1_000_000_000_000,
    description:
      'Budget in minor units of the workspace currency: dispatch stops before the campaign\'s ledger debits would pass it, ' +
      'and the campaign pauses with pauseReason budget_reached; null = no budget',
  })
  @Nullable()
  @IsInt()
  @Min(1)
  @Max(1_000_000_000_000)
  budgetMinor?: number | null;

  // Issue 17 (not a contract bound): recipient-local hours and holidays (decisions.md 28)
  @ApiPropertyOptional({
    oneOf: [
      { type: 'string', enum: ['off'] },
      {
        type: 'object',
        required: ['start', 'end'],
        additionalProperties: false,
        properties: { start: { type: 'string', pattern: '^\\d{2}:\\d{2}$', example: '08:00' }, end: { type: 'string', pattern: '^\\d{2}:\\d{2}$', example: '21:00' } },
      },
    ],
    default: { start: '08:00', end: '21:00' },
    description:
      'Recipient-local calling hours: each contact is called only between start and end (HH:MM, start before end) in its own time zone, ' +
      "derived from its number (else the campaign's timezone), on top of the campaign's window; \"off\" to use only the campaign's window",
  })
  @Optional()
  @IsRecipientHours()
  recipientHours?: RecipientHoursSetting;

  @ApiPropertyOptional({
    default: false,
    description: "No calls on a public holiday of the recipient's country (and state or province where the number tells), recipient-local day",
  })
  @Optional()
  @IsBoolean()
  skipHolidays?: boolean;

  // #35 array of 1-7 elements each 0-6
  @ApiPropertyOptional({ type: [Number], minItems: 1, maxItems: 7, description: 'Days calls are placed, 0 = Sunday … 6 = Saturday' })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(7)
  @ArrayUnique()
  @IsInt({ each: true })
  @Min(0, { each: true })
  @Max(6, { each: true })
  dialDays?: number[];

  // #36 array max 12
  @ApiPropertyOptional({ type: [EvaluationMetricDto], maxItems: 12 })
  @Optional()
  @IsArray()
  @ArrayMaxSize(12)
  @ValidateNested({ each: true })
  @Type(() => EvaluationMetricDto)
  evaluationMetrics?: EvaluationMetricDto[];

  // ---- fields without a stated bound ------------------------------------------------------

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Campaign type whose extraction keys the campaign uses' })
  @Nullable()
  @IsString()
  @Length(1, 100)
  campaignTypeId?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'ACTIVE workflow driving a journey campaign (CSV or API source only)' })
  @Nullable()
  @IsString()
  @Length(1, 100)
  workflowId?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Required for CRM_WEBHOOK campaigns' })
  @Nullable()
  @IsString()
  @Length(1, 200)
  defaultCrmConnectionId?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: "The segment a CRM import of this campaign reads when it names none, if it reads the campaign's defaultCrmConnectionId (or the campaign names none)",
  })
  @Nullable()
  @IsString()
  @Length(1, 200)
  defaultCrmSegmentId?: string | null;

  @ApiPropertyOptional({ example: 'Asia/Kolkata', description: 'IANA time zone of the daily window' })
  @Optional()
  @IsTimeZone()
  timezone?: string;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' })
  @Nullable()
  @IsISO8601({ strict: true })
  scheduledStartAt?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time', description: 'After this the campaign completes; a start after it is refused' })
  @Nullable()
  @IsISO8601({ strict: true })
  scheduledEndAt?: string | null;

  @ApiPropertyOptional({ description: 'Import this upload (POST /uploads) as contacts; needs phoneColumn. DRAFT only' })
  @Optional()
  @IsString()
  @Length(1, 100)
  uploadId?: string;

  @ApiPropertyOptional({ description: 'Upload column holding the phone numbers' })
  @Optional()
  @IsString()
  @Length(1, 200)
  phoneColumn?: string;

  @ApiPropertyOptional({ description: 'Drop rows without a valid phone (true) or refuse the import (false, default)' })
  @Optional()
  @IsBoolean()
  removeInvalidRows?: boolean;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: 'Template variable → contact field' })
  @Optional()
  @IsStringRecord(200, 200)
  variableMap?: Record<string, string>;

  @ApiPropertyOptional({ description: 'Default for the next start: may use idle unreserved capacity above the reservation' })
  @Optional()
  @IsBoolean()
  allowBurst?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'WhatsApp outreach template (message legs)' })
  @Nullable()
  @IsString()
  @Length(1, 100)
  whatsappOutreachTemplateId?: string | null;

  @ApiPropertyOptional({
    type: [String],
    maxItems: 0,
    description:
      'Refused unless empty (400 invalid_body): the voice agent has no tool to send a WhatsApp template during a call, so templates named here would never be sent; a WhatsApp leg sends whatsappOutreachTemplateId / whatsappTemplateByMetric (docs/decisions.md 30.20). [] is accepted',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(0, { message: 'whatsappAgentTemplateIds must be empty: the voice agent cannot send WhatsApp templates during a call (docs/decisions.md 30.20)' })
  @IsString({ each: true })
  @Length(1, 100, { each: true })
  whatsappAgentTemplateIds?: string[];

  @ApiPropertyOptional({
    type: 'object',
    nullable: true,
    maxProperties: 20,
    additionalProperties: { type: 'object', maxProperties: 50, minProperties: 1, additionalProperties: { type: 'string', minLength: 1, maxLength: 100 } },
    example: { mood: { calm: '2b7c…', upbeat: '9f0e…' } },
    description:
      'The WhatsApp follow-up after a call takes the template its evaluation names: {"<metric key>": {"<value>": "<template id>"}}; the first metric (in this order) whose value is mapped wins, else whatsappOutreachTemplateId. Each template is checked at start like the outreach template (docs/decisions.md 33.6, 33.17). null clears it',
  })
  @Nullable()
  @IsTemplateByMetric()
  whatsappTemplateByMetric?: Record<string, Record<string, string>> | null;

  @ApiPropertyOptional() @Optional() @IsBoolean() messageDeclinedLeads?: boolean;
  @ApiPropertyOptional({
    description:
      'Refused when true (400 invalid_body): a campaign has WhatsApp legs exactly when its channel says so (WHATSAPP, VOICE_THEN_WHATSAPP, WHATSAPP_THEN_VOICE); a second switch could only repeat or contradict the channel (docs/decisions.md 30.20). false is accepted',
  })
  @Optional()
  @IsBoolean()
  @IsIn([false], { message: 'whatsappEnabled: true is not supported (docs/decisions.md 30.20); the channel decides the WhatsApp legs' })
  whatsappEnabled?: boolean;
  @ApiPropertyOptional({
    description:
      'Refused when true (400 invalid_body): the service has no payment provider to create payment links, so no message could carry one; a template with a payment_link binding cannot open a campaign (outreach_template_needs_runtime_context; docs/decisions.md 30.20). false is accepted',
  })
  @Optional()
  @IsBoolean()
  @IsIn([false], { message: 'whatsappPaymentLinkEnabled: true is not supported (docs/decisions.md 30.20): no payment link source' })
  whatsappPaymentLinkEnabled?: boolean;
  @ApiPropertyOptional({
    description:
      'Refused when true (400 invalid_body): the service has no checkout or order to recover, so no message could carry a recovery link; a template with a recovery_link binding cannot open a campaign (outreach_template_needs_runtime_context; docs/decisions.md 30.20). false is accepted',
  })
  @Optional()
  @IsBoolean()
  @IsIn([false], { message: 'recoveryLinkEnabled: true is not supported (docs/decisions.md 30.20): no recovery link source' })
  recoveryLinkEnabled?: boolean;
  @ApiPropertyOptional() @Optional() @IsBoolean() transliterateCalleeNames?: boolean;
  @ApiPropertyOptional({ description: 'Calls an interested lead again, after cooldownMinutes, up to followupMaxAttempts (docs/decisions.md 35.3)' })
  @Optional()
  @IsBoolean()
  followupEnabled?: boolean;
  @ApiPropertyOptional({ description: 'Re-contacts a contact lost after every retry, churnDelaysHours / churnIntervalHours later, up to churnMaxAttempts (docs/decisions.md 35.4)' })
  @Optional()
  @IsBoolean()
  churnEnabled?: boolean;
  @ApiPropertyOptional() @Optional() @IsBoolean() incompleteRetryEnabled?: boolean;
  @ApiPropertyOptional() @Optional() @IsBoolean() skipRetryOnFirstVoicemail?: boolean;
  @ApiPropertyOptional() @Optional() @IsBoolean() messageRetryEnabled?: boolean;
  @ApiPropertyOptional() @Optional() @IsBoolean() messageRetryTieredEnabled?: boolean;
  @ApiPropertyOptional({
    description:
      'Refused when true (400 invalid_body): re-seeding a drained campaign from its source is not offered — an upload cannot be read again and a CRM segment is re-imported by a CRM import; re-engage and churn re-contact requeue the campaign’s own contacts (docs/decisions.md 35.8). false is accepted',
  })
  @Optional()
  @IsBoolean()
  @IsIn([false], { message: 'autoReseedEnabled: true is not supported (docs/decisions.md 35.8); use re-engage or churnEnabled' })
  autoReseedEnabled?: boolean;
}

/**
 * Campaign fields accepted and stored whose effect open work still owes (docs/settings.md): their
 * OpenAPI description says so. A field leaves this list with the work that makes it take effect.
 */
export const CAMPAIGN_FIELDS_OWED: Readonly<Record<string, string>> = {
  goal: 'issue 18 (AI assist: the campaign brief reaches the agent)',
  briefText: 'issue 18 (AI assist: the campaign brief reaches the agent)',
  briefFileName: 'issue 18 (AI assist: the campaign brief reaches the agent)',
};
markStoredNoEffect(CampaignFieldsDto, CAMPAIGN_FIELDS_OWED);

/** POST /v1/campaigns: a DRAFT campaign. */
export class CreateCampaignDto extends CampaignFieldsDto {
  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ enum: CAMPAIGN_CHANNELS })
  @IsIn(CAMPAIGN_CHANNELS)
  channel: (typeof CAMPAIGN_CHANNELS)[number];

  @ApiProperty({ enum: CAMPAIGN_SOURCES, description: 'INBOUND: calls to the agent\'s number are answered (channel VOICE, an INBOUND agent); it cannot be switched to or from later' })
  @IsIn(CAMPAIGN_SOURCES)
  source: (typeof CAMPAIGN_SOURCES)[number];

  @ApiPropertyOptional({
    description: 'INBOUND only: the workspace number the campaign answers on; needed when its agent answers on several numbers (inbound_agent_has_many_numbers at start)',
  })
  @Optional()
  @IsString()
  @Length(1, 100)
  phoneNumberId?: string;
}

/** PATCH /v1/campaigns/{id}: any editable field; at least one. */
export class UpdateCampaignDto extends CampaignFieldsDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @Optional()
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({ enum: CAMPAIGN_CHANNELS, description: 'DRAFT only' })
  @Optional()
  @IsIn(CAMPAIGN_CHANNELS)
  channel?: (typeof CAMPAIGN_CHANNELS)[number];

  @ApiPropertyOptional({ enum: EDITABLE_CAMPAIGN_SOURCES, description: 'DRAFT only, and only while the campaign has no contacts' })
  @Optional()
  @IsIn(EDITABLE_CAMPAIGN_SOURCES)
  source?: (typeof EDITABLE_CAMPAIGN_SOURCES)[number];
}

/** Body of start, resume and restart. */
export class StartCampaignDto {
  @ApiPropertyOptional({
    description: 'Concurrent calls reserved for this campaign, 1..workspace allocation (400 invalid_reserved_concurrency); defaults to the stored value',
  })
  @Optional()
  @IsInt()
  reservedConcurrency?: number;

  @ApiPropertyOptional({ description: 'Use idle unreserved capacity above the reservation (never another campaign’s reservation)' })
  @Optional()
  @IsBoolean()
  allowBurst?: boolean;
}
