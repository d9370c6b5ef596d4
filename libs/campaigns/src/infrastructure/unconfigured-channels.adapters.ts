import { Injectable } from '@nestjs/common';
import { CrmDirectory, WorkflowDirectory } from '../application/campaigns.ports';

/*
 * Default adapters of the ports to modules that do not exist yet. Each answers "nothing is
 * configured", so every dependent rule is reachable today (e.g. a CUSTOM campaign's workflow is
 * never ACTIVE). The workflows and crm modules replace them by binding their own implementations
 * in CampaignsCoreModule (messaging did: infrastructure/messaging-readiness.adapters.ts; crm binds
 * through CrmDirectoryBinding).
 */

@Injectable()
export class NoWorkflowDirectory extends WorkflowDirectory {
  async status(): Promise<string | null> {
    return null;
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
