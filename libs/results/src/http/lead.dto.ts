import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WAITING_REASONS } from '@outreach/campaigns';
import { InvalidBodyStatus } from '@outreach/platform';
import { IsOptional, IsString, Length, MaxLength, registerDecorator, ValidationOptions } from 'class-validator';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../domain/lead';

const NEXT_ATTEMPT_AT = {
  nullable: true,
  type: String,
  format: 'date-time',
  description: 'When the lead is expected to be tried next (now when it is due and waits only for a free line); null when in flight, final, or not known (a paused campaign)',
};
const WAITING_REASON = {
  nullable: true,
  type: String,
  enum: [...WAITING_REASONS],
  description: 'Why the lead is not being called now; null when it is in flight, final, or due (docs/decisions.md 28.5)',
};

export const MAX_LEAD_FIELDS = 100;
export const MAX_LEAD_FIELD_NAME = 64;
export const MAX_LEAD_FIELD_TEXT = 2000;
export const MAX_BATCH_LEADS = 500;

/** `fields`: a flat object of scalars (string ≤ 2000, number, boolean, null), at most 100 members named 1-64 characters. */
export function IsLeadFields(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isLeadFields',
      target: object.constructor,
      propertyName,
      options: {
        message: `${propertyName} must be an object of at most ${MAX_LEAD_FIELDS} members (names 1-${MAX_LEAD_FIELD_NAME} characters), each a string of at most ${MAX_LEAD_FIELD_TEXT} characters, a number, a boolean or null`,
        ...options,
      },
      validator: { validate: isLeadFields },
    });
}

export function isLeadFields(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  if (entries.length > MAX_LEAD_FIELDS) return false;
  return entries.every(
    ([k, v]) =>
      k.length >= 1 &&
      k.length <= MAX_LEAD_FIELD_NAME &&
      (v === null ||
        typeof v === 'boolean' ||
        (typeof v === 'number' && Number.isFinite(v)) ||
        (typeof v === 'string' && v.length <= MAX_LEAD_FIELD_TEXT)),
  );
}

/** POST /v1/campaigns/{id}/leads. Validation failures answer 422 (the lead push's status). */
@InvalidBodyStatus(422)
export class PushLeadDto {
  @ApiProperty({
    minLength: 1,
    maxLength: MAX_IDEMPOTENCY_KEY_LENGTH,
    description: 'Printable ASCII. The same key and lead answer the same lead (never a second contact); missing → 422 idempotency_key_required',
  })
  @IsString()
  @Length(1, MAX_IDEMPOTENCY_KEY_LENGTH)
  idempotencyKey: string;

  @ApiProperty({ example: '+14155552671', description: 'E.164 preferred; otherwise read with the campaign countryCode as the default' })
  @IsString()
  @Length(1, 64)
  phone: string;

  @ApiPropertyOptional({ nullable: true, type: String, maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    // OpenAPI 3.0: `nullable` needs a `type` beside it, so each alternative admits null itself.
    additionalProperties: { oneOf: [{ type: 'string', nullable: true }, { type: 'number' }, { type: 'boolean' }] },
    description: 'Contact fields ({{variables}} for the agent), echoed in the result',
  })
  @IsOptional()
  @IsLeadFields()
  fields?: Record<string, string | number | boolean | null>;
}

/** POST /v1/campaigns/{id}/leads/batch: each item is a lead push of its own. */
export class PushLeadsBatchDoc {
  @ApiProperty({ type: [PushLeadDto], minItems: 1, maxItems: MAX_BATCH_LEADS }) leads: PushLeadDto[];
}

export class LeadPushResponse {
  @ApiProperty({ format: 'uuid', description: 'The lead id (the campaign contact)' }) id: string;
  @ApiProperty({ format: 'uuid' }) campaignId: string;
  @ApiProperty() idempotencyKey: string;
  @ApiProperty({ description: 'E.164' }) phone: string;
  @ApiProperty({ nullable: true, type: String }) name: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) fields: Record<string, unknown>;
  @ApiProperty({ example: 'PENDING', description: 'The contact status when the lead was pushed' }) status: string;
  @ApiProperty({ type: 'integer' }) attempts: number;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) resultId: string | null;
  @ApiProperty({ description: 'The campaign had a lead for this phone already: the key now names that lead' }) deduplicated: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class LeadResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) campaignId: string;
  @ApiProperty({ description: 'The key of the push that created the lead' }) idempotencyKey: string;
  @ApiProperty() phone: string;
  @ApiProperty({ nullable: true, type: String }) name: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) fields: Record<string, unknown>;
  @ApiProperty({ enum: ['PENDING', 'IN_PROGRESS', 'RETRY_SCHEDULED', 'COMPLETED', 'FAILED', 'DO_NOT_CALL', 'HAND_OFF'] }) status: string;
  @ApiProperty({ type: 'integer' }) attempts: number;
  @ApiProperty({ nullable: true, type: String }) lastOutcome: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) lastAttemptAt: string | null;
  @ApiProperty(NEXT_ATTEMPT_AT) nextAttemptAt: string | null;
  @ApiProperty(WAITING_REASON) waitingReason: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'Set once the lead is final and its result written' }) resultId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class BatchItemIssue {
  @ApiProperty() path: string;
  @ApiProperty() message: string;
}

export class BatchItemResponse {
  @ApiProperty({ type: 'integer', description: 'Position of the lead in the request' }) index: number;
  @ApiProperty({ type: 'integer', description: 'What the single push would have answered: 201, 200, or the error status' }) status: number;
  @ApiPropertyOptional({ format: 'uuid' }) leadId?: string;
  @ApiPropertyOptional({ type: LeadPushResponse }) lead?: LeadPushResponse;
  @ApiPropertyOptional({ description: 'The error code when the item was refused' }) error?: string;
  @ApiPropertyOptional() message?: string;
  @ApiPropertyOptional({ description: 'campaign_not_accepting: not_api or the campaign status' }) reason?: string;
  @ApiPropertyOptional({ type: [BatchItemIssue] }) issues?: BatchItemIssue[];
}

export class BatchResponse {
  @ApiProperty({ type: [BatchItemResponse] }) results: BatchItemResponse[];
  @ApiProperty({ type: 'integer' }) created: number;
  @ApiProperty({ type: 'integer' }) replayed: number;
  @ApiProperty({ type: 'integer' }) failed: number;
}
