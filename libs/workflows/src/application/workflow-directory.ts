import { Injectable } from '@nestjs/common';
import { WorkflowDirectory } from '@outreach/campaigns';
import { isUuid } from '@outreach/core';
import { WorkflowFeature, WorkflowRepository } from './workflows.ports';

/**
 * What campaigns asks of this module (bound into campaigns' WorkflowDirectoryBinding at start):
 * a workflow's status, or null when there is none — or when the workspace has no `workflows`
 * feature (the contract's workflow_not_found covers both).
 */
@Injectable()
export class WorkflowModuleDirectory extends WorkflowDirectory {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly feature: WorkflowFeature,
  ) {
    super();
  }

  async status(workspaceId: string, workflowId: string): Promise<string | null> {
    if (!isUuid(workflowId) || !(await this.feature.enabled(workspaceId))) return null;
    return (await this.workflows.find(workspaceId, workflowId))?.status ?? null;
  }
}
