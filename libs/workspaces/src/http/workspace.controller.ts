import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import { AnyApiKey, CurrentPrincipal, Principal } from '@outreach/platform';
import { WorkspaceAdministration } from '../application/workspace-administration';
import { WORKSPACE_FEATURES, WORKSPACE_STATUSES } from '../domain/workspace';

export class WorkspaceResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: WORKSPACE_STATUSES }) status: string;
  @ApiProperty({ type: 'integer', description: 'Concurrency allocation: calls in flight across running campaigns' }) concurrency: number;
  @ApiProperty({ type: 'integer', description: 'How many agents the workspace may hold' }) agentQuota: number;
  @ApiProperty({ isArray: true, enum: WORKSPACE_FEATURES }) features: string[];
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) trialUntil: string | null;
  @ApiProperty() activityFrozen: boolean;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ description: 'The key identity this request used', format: 'uuid' }) apiKeyId: string;
  @ApiProperty({ isArray: true, type: String, description: 'Scopes of the calling key; empty = /v1 only' }) scopes: string[];
}

@Controller('v1/workspace')
export class WorkspaceController {
  constructor(private readonly workspaces: WorkspaceAdministration) {}

  /** The workspace of the calling key. */
  @AnyApiKey()
  @Get()
  @ApiOperation({ summary: 'The workspace of the calling key, with the key id and scopes' })
  @ApiOkResponse({ type: WorkspaceResponse })
  async get(@CurrentPrincipal() principal: Principal): Promise<WorkspaceResponse> {
    const view = await this.workspaces.get(principal.workspaceId);
    return {
      id: view.id,
      name: view.name,
      status: view.status,
      concurrency: view.concurrency,
      agentQuota: view.agentQuota,
      features: view.features,
      trialUntil: view.trialUntil,
      activityFrozen: view.activityFrozen,
      currency: view.currency,
      apiKeyId: principal.keyId,
      scopes: principal.scopes,
    };
  }
}
