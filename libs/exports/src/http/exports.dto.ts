import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CONTACT_STATUSES } from '@outreach/campaigns';
import { OffsetPageQuery } from '@outreach/platform';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsISO8601, IsOptional, IsString, Length, ValidateNested } from 'class-validator';
import { EXPORT_FORMATS, ExportFormat } from '../domain/export-format';
import { EXPORT_PERIODS } from '../domain/export-period';
import { LEAD_SEGMENTS, LeadSegment } from '../domain/lead-filter';
import { EXPORT_STATUSES } from '../domain/export-job';

const PERIOD_DESCRIPTION = `One of ${EXPORT_PERIODS.join(', ')} (UTC); anything else is 400 invalid_export_period. custom needs from and to (400 invalid_export_range).`;

/** `period`, `from`, `to` of the count routes (query). */
export class ExportPeriodQueryDto {
  @ApiPropertyOptional({ description: PERIOD_DESCRIPTION, default: 'all_time', maxLength: 32 })
  @IsOptional()
  @IsString()
  @Length(1, 32)
  period?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'custom: activity at or after this instant (ISO-8601)' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'custom: activity before this instant (ISO-8601)' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  to?: string;
}

/** One analysis value a lead's last call must have. */
export class LeadValueMatchDto {
  @ApiProperty({ minLength: 1, maxLength: 64, example: 'budget' })
  @IsString()
  @Length(1, 64)
  key: string;

  @ApiProperty({ type: [String], minItems: 1, maxItems: 50, description: 'Any of these values (compared as text; arrays as "a; b")', example: ['yes'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Length(0, 500, { each: true })
  values: string[];
}

/** A custom lead filter: every member narrows, values within a member are alternatives. */
export class LeadFilterDto {
  @ApiPropertyOptional({ enum: CONTACT_STATUSES, isArray: true, maxItems: CONTACT_STATUSES.length })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(CONTACT_STATUSES.length)
  @IsIn(CONTACT_STATUSES, { each: true })
  statuses?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: 20, description: 'Last attempt outcome: no_answer, busy, voicemail, carrier_failure, transferred, completed', example: ['completed'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  outcomes?: string[];

  @ApiPropertyOptional({ type: [LeadValueMatchDto], maxItems: 20, description: 'Extracted values of the last call' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => LeadValueMatchDto)
  extraction?: LeadValueMatchDto[];

  @ApiPropertyOptional({ type: [LeadValueMatchDto], maxItems: 20, description: 'Evaluation metric values of the last call (overrides applied)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => LeadValueMatchDto)
  evaluation?: LeadValueMatchDto[];
}

/** Body of POST /campaigns/{id}/segmented-leads/count. */
export class SegmentedLeadsCountDto extends LeadFilterDto {
  @ApiPropertyOptional({ description: PERIOD_DESCRIPTION, default: 'all_time', maxLength: 32 })
  @IsOptional()
  @IsString()
  @Length(1, 32)
  period?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  to?: string;
}

/** Body of POST /campaigns/{id}/exports. */
export class CreateExportDto {
  @ApiProperty({ enum: EXPORT_FORMATS })
  @IsIn(EXPORT_FORMATS)
  format: ExportFormat;

  @ApiProperty({ description: PERIOD_DESCRIPTION, maxLength: 32, example: 'all_time' })
  @IsString()
  @Length(1, 32)
  period: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  to?: string;

  @ApiPropertyOptional({ enum: LEAD_SEGMENTS, description: 'A preset segment (not with filter)' })
  @IsOptional()
  @IsIn(LEAD_SEGMENTS)
  segment?: LeadSegment;

  @ApiPropertyOptional({ type: LeadFilterDto, description: 'A custom filter (not with segment)' })
  @IsOptional()
  @ValidateNested()
  @Type(() => LeadFilterDto)
  filter?: LeadFilterDto;

  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: 500,
    description: 'Columns to keep, in this order: contact_id, phone, name, status, attempts, outcome, last_attempt_at, connected_phone, call_id, call_started_at, call_duration_seconds, field.<key>, extraction.<key>, metric.<key>. All by default.',
    example: ['phone', 'status', 'outcome'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @IsString({ each: true })
  @Length(1, 200, { each: true })
  columns?: string[];
}

/** offset 0-1,000,000 and limit 1-200 (default 50). */
export class ExportListQueryDto extends OffsetPageQuery {}

export class ExportCountResponse {
  @ApiProperty({ enum: EXPORT_PERIODS }) period: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) from: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) to: string | null;
  @ApiProperty({ type: 'integer', minimum: 0 }) count: number;
}

export class LeadSegmentCount {
  @ApiProperty({ enum: LEAD_SEGMENTS }) key: string;
  @ApiProperty({ type: 'integer', minimum: 0 }) count: number;
}

export class LeadSegmentsResponse {
  @ApiProperty({ enum: EXPORT_PERIODS }) period: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) from: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) to: string | null;
  @ApiProperty({ type: [LeadSegmentCount] }) segments: LeadSegmentCount[];
}

export class LeadValueMatchResponse {
  @ApiProperty() key: string;
  @ApiProperty({ type: [String] }) values: string[];
}

export class LeadFilterResponse {
  @ApiPropertyOptional({ enum: CONTACT_STATUSES, isArray: true }) statuses?: string[];
  @ApiPropertyOptional({ type: [String] }) outcomes?: string[];
  @ApiPropertyOptional({ type: [LeadValueMatchResponse] }) extraction?: LeadValueMatchResponse[];
  @ApiPropertyOptional({ type: [LeadValueMatchResponse] }) evaluation?: LeadValueMatchResponse[];
}

export class ExportJobResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) campaignId: string;
  @ApiProperty({ enum: EXPORT_FORMATS }) format: string;
  @ApiProperty({ enum: EXPORT_STATUSES }) status: string;
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 100 }) progress: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Rows written (null until ready)' }) rowCount: number | null;
  @ApiProperty({ enum: EXPORT_PERIODS }) period: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) from: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) to: string | null;
  @ApiProperty({ enum: LEAD_SEGMENTS, nullable: true, type: String }) segment: string | null;
  @ApiProperty({ type: LeadFilterResponse, nullable: true }) filter: LeadFilterResponse | null;
  @ApiProperty({ type: [String], nullable: true }) columns: string[] | null;
  @ApiProperty({ example: 'Winter-renewals-all_time-2026-11-25.csv' }) fileName: string;
  @ApiProperty({ nullable: true, type: String, description: 'Error code of a failed export' }) error: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) startedAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) finishedAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Download until (EXPORT_TTL_HOURS after ready)' }) expiresAt: string | null;
  @ApiProperty({ description: 'Ready but past expiresAt: the download answers 410 expired' }) expired: boolean;
}

export class ExportJobsPage {
  @ApiProperty({ type: [ExportJobResponse] }) items: ExportJobResponse[];
  @ApiProperty({ type: 'integer' }) total: number;
}
