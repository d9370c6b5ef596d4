import { Injectable } from '@nestjs/common';
import { CrmDirectory, WorkflowDirectory } from '../application/campaigns.ports';

/*
 * Default adapters of the ports to modules that do not exist yet. Each answers "nothing is
 * configured", so every dependent rule is reachable today (e.g. a CUSTOM campaign's workflow is
 * never ACTIVE). The workflows and crm modules bind their own implementations into them when they
 * start (messaging replaced its ports: infrastructure/messaging-readiness.adapters.ts).
 */

/**
 * The WorkflowDirectory campaigns asks. The workflows module depends on campaigns (journey runs
 * read its contacts), so it binds its implementation here when it starts (`bind`), like the crm
 * module below. Until then (a process without the workflows module) no workflow exists.
 */
@Injectable()
export class WorkflowDirectoryBinding extends WorkflowDirectory {
  private bound: WorkflowDirectory | null = null;

  bind(directory: WorkflowDirectory): void {
    this.bound = directory;
  }

  async status(workspaceId: string, workflowId: string): Promise<string | null> {
    return this.bound ? this.bound.status(workspaceId, workflowId) : null;
  }
}

/**
 * The CrmDirectory campaigns asks. The crm module depends on campaigns (it adds contacts through
 * CrmContactIntake), so campaigns cannot import it: the crm module binds its implementation here
 * when it starts (`bind`), as agents' reference registry works. Until then (a process without the
 * crm module) it answers "no connection, no import".
 */
@Injectable()
export class CrmDirectoryBinding extends CrmDirectory {
  private bound: CrmDirectory | null = null;

  bind(directory: CrmDirectory): void {
    this.bound = directory;
  }

  async connectionStatus(workspaceId: string, connectionId: string): Promise<string | null> {
    return this.bound ? this.bound.connectionStatus(workspaceId, connectionId) : null;
  }

  async hasImportInProgress(workspaceId: string, campaignId: string): Promise<boolean> {
    return this.bound ? this.bound.hasImportInProgress(workspaceId, campaignId) : false;
  }
}
