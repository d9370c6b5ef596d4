import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { OffsetPageQuery } from '@outreach/platform';
import { RUN_STATUSES, STEP_STATUSES } from '../domain/run';
import { NODE_KINDS } from '../domain/workflow-definition';

const nullableString = { type: String, nullable: true } as const;
const nullableTime = { type: String, format: 'date-time', nullable: true } as const;

export class RunListQueryDto extends OffsetPageQuery {
  @ApiPropertyOptional({ enum: RUN_STATUSES, description: 'Only runs in this status' })
  @IsOptional()
  @IsIn(RUN_STATUSES)
  status?: (typeof RUN_STATUSES)[number];
}

export class JourneyCallResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() status!: string;
  @ApiProperty(nullableString) outcome!: string | null;
  @ApiProperty(nullableString) providerDisposition!: string | null;
  @ApiProperty(nullableTime) answeredAt!: string | null;
  @ApiProperty(nullableTime) endedAt!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) durationMs!: number | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) extraction!: Record<string, unknown> | null;
}

export class JourneyStepResponse {
  @ApiProperty() nodeId!: string;
  @ApiProperty(nullableString) label!: string | null;
  @ApiProperty({ enum: NODE_KINDS, description: 'The node kind' }) type!: string;
  @ApiProperty({ enum: ['none', 'call', 'whatsapp', 'email', 'wait', 'webhook'] }) actionKind!: string;
  @ApiProperty({ enum: STEP_STATUSES }) status!: string;
  @ApiProperty(nullableString) error!: string | null;
  @ApiProperty({ format: 'date-time' }) startedAt!: string;
  @ApiProperty(nullableTime) endedAt!: string | null;
  @ApiProperty({ type: JourneyCallResponse, nullable: true }) call!: JourneyCallResponse | null;
  @ApiProperty({ ...nullableString, description: 'The port the step left through (null while it runs, and for an end)' }) port!: string | null;
}

export class RunSummaryResponse {
  @ApiProperty({ format: 'uuid' }) runId!: string;
  @ApiProperty({ format: 'uuid' }) workflowId!: string;
  @ApiProperty({ type: 'integer', description: 'The revision the run started on (it keeps it)' }) revision!: number;
  @ApiProperty({ format: 'uuid' }) campaignId!: string;
  @ApiProperty({ format: 'uuid' }) leadId!: string;
  @ApiProperty({ enum: RUN_STATUSES }) status!: string;
  @ApiProperty({ description: 'RUNNING: the node of the current step; WAITING: the node whose step waits' }) nodeId!: string;
  @ApiProperty({ type: 'integer', description: 'Steps are numbered by visit from 1' }) visit!: number;
  @ApiProperty({ ...nullableTime, description: 'WAITING: when the wait (or reply window) ends' }) dueAt!: string | null;
  @ApiProperty(nullableString) endLabel!: string | null;
  @ApiProperty(nullableString) failureReason!: string | null;
  @ApiProperty({ type: [String] }) tags!: string[];
  @ApiProperty({ format: 'date-time' }) startedAt!: string;
  @ApiProperty(nullableTime) endedAt!: string | null;
}

export class RunResponse extends RunSummaryResponse {
  @ApiProperty({ type: [JourneyStepResponse] }) steps!: JourneyStepResponse[];
}
