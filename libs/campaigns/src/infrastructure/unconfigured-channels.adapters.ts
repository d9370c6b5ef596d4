import { Injectable } from '@nestjs/common';
import { CrmDirectory, EmailReadiness, WhatsappReadiness, WorkflowDirectory } from '../application/campaigns.ports';

/*
 * Default adapters of the ports to modules that do not exist yet. Each answers "nothing is
 * configured", so every dependent rule is reachable today (e.g. a WHATSAPP campaign cannot start:
 * 400 campaign_channel_needs_sender). The whatsapp, email, workflows and crm modules replace them
 * by binding their own implementations in CampaignsCoreModule.
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

@Injectable()
export class NoCrmDirectory extends CrmDirectory {
  async connectionStatus(): Promise<string | null> {
    return null;
  }

  async hasImportInProgress(): Promise<boolean> {
    return false;
  }
}
