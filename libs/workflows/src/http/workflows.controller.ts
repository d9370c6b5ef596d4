import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Raises, RequireFeature, RequireScope } from '@outreach/platform';
import { WorkflowView } from '../application/workflow-view';
import { Workflows } from '../application/workflows';
import {
  CreateWorkflowDto,
  UpdateWorkflowDto,
  WorkflowListResponse,
  WorkflowResponse,
  WorkflowRevisionDto,
  WorkflowRevisionQueryDto,
} from './workflows.dto';

/**
 * Workflow definitions (issue 13; decisions.md 37). A workspace without the `workflows` feature
 * gets 404 workflow_not_found on every route, as the contract says.
 */
@RequireFeature('workflows', 'workflow_not_found')
@Controller()
export class WorkflowsController {
  constructor(private readonly workflows: Workflows) {}

  @RequireScope('workflows.view')
  @Get(['workflows', 'v1/workflows'])
  @Raises('workflow_not_found')
  @ApiOperation({ summary: "The workspace's workflows, oldest first (unpaginated); an ACTIVE one can drive a journey campaign (channel CUSTOM)" })
  @ApiOkResponse({ type: WorkflowListResponse })
  async list(@CurrentPrincipal() p: Principal): Promise<WorkflowListResponse> {
    return { workflows: await this.workflows.list(p.workspaceId) };
  }

  @RequireScope('workflows.edit')
  @Post('workflows')
  @Raises('workflow_invalid')
  @ApiOperation({ summary: 'Create a DRAFT workflow at revision 1 (its definition is validated: 422 workflow_invalid with details)' })
  @ApiCreatedResponse({ type: WorkflowResponse })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateWorkflowDto): Promise<WorkflowView> {
    return this.workflows.create(p.workspaceId, { name: body.name, definition: body.definition });
  }

  @RequireScope('workflows.view')
  @Get('workflows/:id')
  @Raises('workflow_not_found')
  @ApiOperation({ summary: 'One workflow with the definition of its current revision' })
  @ApiOkResponse({ type: WorkflowResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<WorkflowView> {
    return this.workflows.get(p.workspaceId, id);
  }

  @RequireScope('workflows.edit')
  @Put('workflows/:id')
  @Raises('workflow_not_found', 'workflow_invalid', 'concurrent_modification', 'invalid_request')
  @ApiOperation({ summary: 'Replace the name and/or definition at `revision` (a new revision; runs keep the one they started on)' })
  @ApiOkResponse({ type: WorkflowResponse })
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateWorkflowDto): Promise<WorkflowView> {
    return this.workflows.update(p.workspaceId, id, { revision: body.revision, name: body.name, definition: body.definition });
  }

  @RequireScope('workflows.edit')
  @Delete('workflows/:id')
  @HttpCode(204)
  @Raises('workflow_not_found', 'concurrent_modification', 'invalid_query')
  @ApiOperation({ summary: 'Delete the workflow at `revision` (its runs keep their revision)' })
  @ApiNoContentResponse()
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Query() q: WorkflowRevisionQueryDto): Promise<void> {
    await this.workflows.remove(p.workspaceId, id, q.revision);
  }

  @RequireScope('workflows.edit')
  @Post('workflows/:id/activate')
  @HttpCode(200)
  @Raises('workflow_not_found', 'workflow_invalid', 'concurrent_modification', 'invalid_request')
  @ApiOperation({ summary: 'DRAFT → ACTIVE at `revision` (the agents and templates it names are checked again); ACTIVE stays ACTIVE' })
  @ApiOkResponse({ type: WorkflowResponse })
  activate(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: WorkflowRevisionDto): Promise<WorkflowView> {
    return this.workflows.activate(p.workspaceId, id, body.revision);
  }

  @RequireScope('workflows.edit')
  @Post('workflows/:id/archive')
  @HttpCode(200)
  @Raises('workflow_not_found', 'concurrent_modification', 'invalid_request')
  @ApiOperation({ summary: 'DRAFT or ACTIVE → archived at `revision` (runs under way finish; no new journey campaign can use it)' })
  @ApiOkResponse({ type: WorkflowResponse })
  archive(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: WorkflowRevisionDto): Promise<WorkflowView> {
    return this.workflows.archive(p.workspaceId, id, body.revision);
  }
}
