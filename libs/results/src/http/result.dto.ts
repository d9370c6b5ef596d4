import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsISO8601, IsString, IsUUID, Max, MaxLength, Min, ValidateIf } from 'class-validator';

/** The member may be absent; when present it must pass the other decorators. */
export const Optional = () => ValidateIf((_object, value) => value !== undefined);

export class CursorQueryDto {
  @ApiPropertyOptional({ description: 'nextCursor of the previous page (opaque)' })
  @Optional()
  @IsString()
  @MaxLength(200)
  cursor?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 })
  @Optional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

export class ResultsQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID()
  campaignId?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only results created at or after this instant' })
  @Optional()
  @IsISO8601({ strict: true })
  since?: string;
}

class LeadDto {
  @ApiProperty() phone: string;
  @ApiProperty({ nullable: true, type: String }) name: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) fields: Record<string, unknown>;
}

class FinalCallDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() status: string;
  @ApiProperty({ nullable: true, type: String }) outcome: string | null;
  @ApiProperty({ nullable: true, type: String }) providerDisposition: string | null;
  @ApiProperty({ type: 'integer' }) attemptNumber: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) answeredAt: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) endedAt: string | null;
  @ApiProperty({ type: 'integer' }) durationMs: number;
  @ApiPropertyOptional({
    description: "The number this call dialled: the lead's phone or one of its alternates (absent from results written before alternates were dialled)",
  })
  toNumber?: string;
}

class AnalysisDto {
  @ApiProperty({ example: 'PENDING' }) status: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) evaluation: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true }) extraction: Record<string, unknown>;
}

class MessageLegDto {
  @ApiProperty({ enum: ['WHATSAPP', 'EMAIL'] }) channel: 'WHATSAPP' | 'EMAIL';
  @ApiProperty({ example: 'delivered', description: 'sent, delivered, read, replied, undelivered, provider_unavailable, retry_window_passed, opted_out, …' }) outcome: string;
}

class LeadResultDataDto {
  @ApiProperty({ format: 'uuid' }) leadId: string;
  @ApiProperty({ format: 'uuid' }) campaignId: string;
  @ApiProperty() idempotencyKey: string;
  @ApiProperty({ type: LeadDto }) lead: LeadDto;
  @ApiProperty({ example: 'completed' }) status: string;
  @ApiProperty() disposition: string;
  @ApiProperty({ type: 'integer' }) attempts: number;
  @ApiProperty({ type: FinalCallDto, nullable: true }) finalCall: FinalCallDto | null;
  @ApiProperty({ type: AnalysisDto }) analysis: AnalysisDto;
  @ApiProperty({ nullable: true, type: 'object', additionalProperties: true, description: 'The journey campaign run of the lead (runId, workflowId, status, endLabel, failureReason, startedAt, endedAt, tags, steps); null for other campaigns' }) journey: Record<string, unknown> | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: "The number on which a person answered (the lead's phone or an alternate); null when nobody did; absent from results written before alternates were dialled",
  })
  connectedPhone?: string | null;
  @ApiPropertyOptional({
    nullable: true,
    type: MessageLegDto,
    description: 'The lead\'s message leg (WhatsApp or email) and what became of its message; null when it had none; absent from results written before message legs',
  })
  message?: MessageLegDto | null;
}

export class LeadResultResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'api.lead.result' }) type: string;
  @ApiProperty({ example: '1.0' }) apiVersion: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: LeadResultDataDto }) data: LeadResultDataDto;
}

export class LeadResultsPage {
  @ApiProperty({ type: [LeadResultResponse] }) items: LeadResultResponse[];
  @ApiProperty({ nullable: true, type: String }) nextCursor: string | null;
}
