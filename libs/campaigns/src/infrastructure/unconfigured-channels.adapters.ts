import { Injectable } from '@nestjs/common';
import { CrmDirectory, WorkflowDirectory } from '../application/campaigns.ports';

/*
 * Default adapters of the ports to modules that do not exist yet. Each answers "nothing is
 * configured", so every dependent rule is reachable today (e.g. a CUSTOM campaign's workflow is
 * never ACTIVE). The workflows and crm modules replace them by binding their own implementations
 * in CampaignsCoreModule (messaging did: infrastructure/messaging-readiness.adapters.ts).
 */

@Injectable()
export class NoWorkflowDirectory extends WorkflowDirectory {
  async status(): Promise<string | null> {
    return null;
  }
}

@Injectable()
export class NoCrmDirectory extends CrmDirectory {
  async connectionStatus(): Promise<string | null> {
    return null;
  }

  async hasImportInProgress(): Promise<boolean> {
    return false;
  }
}
