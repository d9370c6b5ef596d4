import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
  registerDecorator,
  ValidationOptions,
} from 'class-validator';
import { CALL_STATUSES, MetricOverride, CallRecord } from '../application/call-queries';

/** An operator's correction of one evaluation metric (PUT /calls/{id}/metrics/{key} is operator-only). */
export class MetricOverrideResponse {
  @ApiProperty({ description: 'The value in force (one of the metric\'s allowedValues)' }) value: string;
  @ApiProperty({ type: String, nullable: true, description: 'What the analysis had said, or null if it had not judged the metric' })
  originalValue: string | null;
  @ApiProperty({ format: 'date-time' }) overriddenAt: string;
}

/** A call: one attempt of a campaign, or a test call. */
export class CallResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null for test calls' }) campaignId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null for test calls' }) contactId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) agentId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Caller id, E.164' }) fromNumber: string | null;
  @ApiProperty({ description: 'Destination, E.164' }) toNumber: string;
  @ApiProperty({ enum: ['campaign', 'test', 'inbound'], description: 'inbound: fromNumber is the caller, toNumber our number' }) kind: string;
  @ApiProperty({ enum: CALL_STATUSES }) status: string;
  @ApiProperty({ type: String, nullable: true, description: 'How the call ended (null while in progress)' }) outcome: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The voice provider's own disposition" }) providerDisposition: string | null;
  @ApiProperty({ type: 'integer', description: '1 for the first attempt of a contact' }) attemptNumber: number;
  @ApiProperty({ format: 'date-time' }) startedAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) answeredAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) endedAt: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) durationMs: number | null;
  @ApiProperty({ type: String, nullable: true }) transcript: string | null;
  @ApiProperty({ type: String, nullable: true }) recordingUrl: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: "The voice provider's own post-call analysis as it sent it (e.g. Vapi's summary and successEvaluation); null when it has none",
  })
  providerAnalysis: Record<string, unknown> | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'Extracted fields by key (null until analysed)' })
  extraction: Record<string, unknown> | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    nullable: true,
    description: 'Evaluation metrics by key, operator overrides applied (null until analysed)',
  })
  evaluation: Record<string, string> | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/MetricOverrideResponse' },
    description: 'Operator overrides by metric key, with the value the analysis had given',
  })
  metricOverrides: Record<string, MetricOverrideResponse>;
  @ApiProperty({ enum: ['PENDING', 'DONE', 'FAILED', 'SKIPPED'] }) analysisStatus: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class CallListResponse {
  @ApiProperty({ type: [CallResponse] }) items: CallResponse[];
  @ApiProperty({ type: 'integer', description: 'Calls matching the filters, over all pages' }) total: number;
}

export class CampaignActivityResponse {
  @ApiProperty({ type: [CallResponse], description: 'The latest 50 calls of the campaign, newest first' }) items: CallResponse[];
}

export function toCallResponse(call: CallRecord): CallResponse {
  const overrides: Record<string, MetricOverride> = call.metricOverrides;
  const evaluation =
    call.evaluation === null && Object.keys(overrides).length === 0
      ? null
      : { ...((call.evaluation ?? {}) as Record<string, string>), ...Object.fromEntries(Object.entries(overrides).map(([k, o]) => [k, o.value])) };
  return {
    id: call.id,
    campaignId: call.campaignId,
    contactId: call.contactId,
    agentId: call.agentId,
    fromNumber: call.fromNumber,
    toNumber: call.toNumber,
    kind: call.kind,
    status: call.status,
    outcome: call.outcome,
    providerDisposition: call.providerDisposition,
    attemptNumber: call.attemptNumber,
    startedAt: call.startedAt,
    answeredAt: call.answeredAt,
    endedAt: call.endedAt,
    durationMs: call.durationMs,
    transcript: call.transcript,
    recordingUrl: call.recordingUrl,
    providerAnalysis: call.providerAnalysis,
    extraction: call.extraction,
    evaluation,
    metricOverrides: { ...overrides },
    analysisStatus: call.analysisStatus,
    createdAt: call.createdAt,
  };
}

export const CALLS_PAGE_MAX = 200;

/** GET /calls: offset/limit and filters. Bad values → 400 invalid_query. */
export class ListCallsQuery {
  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  offset?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: CALLS_PAGE_MAX, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(CALLS_PAGE_MAX)
  limit?: number;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all')
  campaignId?: string;

  @ApiPropertyOptional({ enum: CALL_STATUSES })
  @IsOptional()
  @IsIn(CALL_STATUSES)
  status?: (typeof CALL_STATUSES)[number];

  @ApiPropertyOptional({ description: 'Exact outcome, e.g. COMPLETED, NO_ANSWER, VOICEMAIL' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  outcome?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Calls started at or after this instant (ISO-8601)' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Calls started before this instant (ISO-8601)' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  to?: string;
}

const VARIABLE_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
export const MAX_TEST_CALL_VARIABLES = 100;
export const MAX_TEST_CALL_VARIABLE_LENGTH = 2000;

/** An object of at most `maxKeys` template variables (names like preCallVariables) with string values. */
function IsVariables(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isVariables',
      target: object.constructor,
      propertyName,
      options: {
        message: `${propertyName} must be an object of at most ${MAX_TEST_CALL_VARIABLES} members named like ${VARIABLE_NAME.source}, each a string of at most ${MAX_TEST_CALL_VARIABLE_LENGTH} characters`,
        ...options,
      },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).length <= MAX_TEST_CALL_VARIABLES &&
          Object.entries(value).every(
            ([k, v]) => k.length <= 100 && VARIABLE_NAME.test(k) && typeof v === 'string' && v.length <= MAX_TEST_CALL_VARIABLE_LENGTH,
          ),
      },
    });
}

/** POST /calls/test. */
export class PlaceTestCallDto {
  @ApiProperty({ format: 'uuid', description: 'An ACTIVE agent of the workspace' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  agentId: string;

  @ApiProperty({ example: '+14155550123', description: 'Destination; normalised to E.164 (include the calling code)' })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  toNumber: string;

  @ApiPropertyOptional({ format: 'uuid', description: "Caller id: a number of the workspace; without it the operator's SANDBOX_FROM_NUMBER" })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  fromPhoneNumberId?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: `Template variables for the agent (at most ${MAX_TEST_CALL_VARIABLES})`,
  })
  @IsOptional()
  @IsVariables()
  variables?: Record<string, string>;
}

/** PUT /calls/{id}/metrics/{key} (documentation only: every API key gets 403 operator_only). */
export class OverrideMetricDto {
  @ApiProperty({ description: "One of the metric's allowedValues" })
  value: string;
}

/** GET /calls/{id}/contact: the campaign contact the call was placed to. */
export class CallContactResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) campaignId: string;
  @ApiProperty({ example: '+14155550123', description: 'The contact’s number (E.164)' }) phone: string;
  @ApiProperty({ description: 'The contact’s status in its campaign' }) status: string;
}

/** POST /calls/test/web. */
export class StartWebSessionDto {
  @ApiProperty({ format: 'uuid', description: 'An ACTIVE agent of the workspace' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  agentId: string;
}

/** A browser test session with an agent: open `url` with `token` (the sandbox makes both up). */
export class WebSessionResponse {
  @ApiProperty({ format: 'uuid' }) sessionId: string;
  @ApiProperty({ format: 'uuid' }) agentId: string;
  @ApiProperty({ example: 'sandbox', description: 'The voice provider hosting the session' }) provider: string;
  @ApiProperty({ description: 'Where the browser joins the session' }) url: string;
  @ApiProperty({ description: 'The session’s access token' }) token: string;
}
