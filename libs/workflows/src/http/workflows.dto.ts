import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsObject, IsOptional, IsString, Length, Max, Min, ValidateIf } from 'class-validator';
import { WORKFLOW_STATUSES } from '../domain/workflow';
import { MAX_EDGES, MAX_NODES, NODE_KINDS } from '../domain/workflow-definition';

/** Optional but never null. */
const Optional = () => ValidateIf((_: unknown, value: unknown) => value !== undefined);

const DEFINITION_DESCRIPTION =
  `A graph of at most ${MAX_NODES} nodes and ${MAX_EDGES} edges (decisions.md 37.1). Node kinds: ${NODE_KINDS.join(', ')}. ` +
  'Configs: call {agentId}; whatsapp/email {templateId, replyWithinSeconds?}; wait {seconds} or {untilLocalTime "HH:MM"}; ' +
  'branch {on: call_outcome|extraction|evaluation|message_reply|lead_field, key?, cases: [{name, values}]}; tag {tag}; webhook {url}; start and end {}. ' +
  'Ports: call → answered, no_answer, voicemail, failed, transferred; whatsapp/email → sent, failed, replied; branch → its case names and else; ' +
  'start, wait, tag, webhook → next; end → none. Every port is wired; one start; every node reachable; every cycle passes a wait. ' +
  'An invalid definition answers 422 workflow_invalid with details [{path, message}].';

const definitionSchema = {
  type: 'object',
  additionalProperties: false,
  description: DEFINITION_DESCRIPTION,
  required: ['nodes', 'edges'],
  properties: {
    nodes: {
      type: 'array',
      maxItems: MAX_NODES,
      items: {
        type: 'object',
        required: ['id', 'kind', 'config'],
        properties: {
          id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
          kind: { type: 'string', enum: [...NODE_KINDS] },
          label: { type: 'string', maxLength: 120 },
          config: { type: 'object', additionalProperties: true },
        },
      },
    },
    edges: {
      type: 'array',
      maxItems: MAX_EDGES,
      items: { type: 'object', required: ['from', 'port', 'to'], properties: { from: { type: 'string' }, port: { type: 'string' }, to: { type: 'string' } } },
    },
  },
  example: {
    nodes: [
      { id: 'start', kind: 'start', config: {} },
      { id: 'done', kind: 'end', label: 'done', config: {} },
    ],
    edges: [{ from: 'start', port: 'next', to: 'done' }],
  },
} as ApiPropertyOptions;

export class CreateWorkflowDto {
  @ApiProperty({ minLength: 1, maxLength: 120, example: 'Call, then WhatsApp the interested' })
  @IsString()
  @Length(1, 120)
  name: string;

  @ApiProperty(definitionSchema)
  @IsDefined()
  @IsObject()
  definition: Record<string, unknown>;
}

export class UpdateWorkflowDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'The revision this write edits (409 concurrent_modification with currentRevision when stale)', example: 1 })
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  revision: number;

  @ApiPropertyOptional({ minLength: 1, maxLength: 120 })
  @Optional()
  @IsString()
  @Length(1, 120)
  name?: string;

  @ApiPropertyOptional(definitionSchema)
  @Optional()
  @IsObject()
  definition?: Record<string, unknown>;
}

export class WorkflowRevisionDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'The revision this write edits (409 concurrent_modification with currentRevision when stale)', example: 1 })
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  revision: number;
}

export class WorkflowRevisionQueryDto {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'The revision this delete removes, required (409 concurrent_modification with currentRevision when stale). Checked after the workflow is found: an unknown id answers 404 either way',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  revision?: number;
}

export class WorkflowSummaryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: WORKFLOW_STATUSES }) status: string;
  @ApiProperty({ type: 'integer', minimum: 1 }) revision: number;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class WorkflowResponse extends WorkflowSummaryResponse {
  @ApiProperty({ ...definitionSchema, example: undefined } as ApiPropertyOptions) definition: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class WorkflowListResponse {
  @ApiProperty({ type: [WorkflowSummaryResponse] }) workflows: WorkflowSummaryResponse[];
}

