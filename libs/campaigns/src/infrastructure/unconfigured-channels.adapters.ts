import { Injectable } from '@nestjs/common';
import { CrmDirectory, EmailReadiness, WhatsappReadiness, WorkflowDirectory } from '../application/campaigns.ports';

/*
 * Default adapters of the ports to modules that do not exist yet. Each answers "nothing is
 * configured", so every dependent rule is reachable today (e.g. a WHATSAPP campaign cannot start:
 * 400 campaign_channel_needs_sender). The whatsapp, email, workflows and crm modules replace them
 * by binding their own implementations in CampaignsCoreModule (crm: through CrmDirectoryBinding).
 */

@Injectable()
export class NoWhatsappReadiness extends WhatsappReadiness {
  async check(): Promise<{ hasSender: boolean; template: 'missing' }> {
    return { hasSender: false, template: 'missing' };
  }
}

@Injectable()
export class NoEmailReadiness extends EmailReadiness {
  async check(): Promise<{ hasSender: boolean; hasTemplate: boolean }> {
    return { hasSender: false, hasTemplate: false };
  }
}

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
