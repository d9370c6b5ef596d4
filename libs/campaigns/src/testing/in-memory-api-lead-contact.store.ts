import { randomUUID } from 'node:crypto';
import { Outbox } from '@outreach/platform';
import { ApiLeadContactInput, ApiLeadContactStore, ApiLeadContactView, ApiLeadIntake } from '../application/api-lead-intake.service';
import { CampaignRepository } from '../application/campaigns.ports';

interface ApiCampaignRow {
  id: string;
  workspaceId: string;
  source: string;
  status: string;
  countryCode: string | null;
}

/** API lead contacts and the campaigns they go into, in memory (one contact per campaign and phone). */
export class LeadPushContactStore extends ApiLeadContactStore {
  readonly campaigns = new Map<string, ApiCampaignRow>();
  readonly contacts: ApiLeadContactView[] = [];

  /** Test setup: a campaign (RUNNING API campaign unless told otherwise). */
  addCampaign(row: Partial<ApiCampaignRow> & { id: string; workspaceId: string }): void {
    this.campaigns.set(row.id, { source: 'API', status: 'RUNNING', countryCode: null, ...row });
  }

  async lockCampaign(workspaceId: string, campaignId: string): Promise<Omit<ApiCampaignRow, 'workspaceId'> | null> {
    const row = this.campaigns.get(campaignId);
    if (!row || row.workspaceId !== workspaceId) return null;
    const { workspaceId: _workspace, ...campaign } = row;
    return campaign;
  }

  async insertOrFind(_workspaceId: string, campaignId: string, contact: ApiLeadContactInput): Promise<{ id: string; created: boolean }> {
    const known = this.contacts.find((c) => c.campaignId === campaignId && c.phone === contact.phone);
    if (known) return { id: known.id, created: false };
    const at = '2026-01-01T00:00:00.000Z';
    const id = randomUUID();
    this.contacts.push({
      id,
      campaignId,
      phone: contact.phone,
      name: contact.name,
      fields: { ...contact.fields },
      status: 'PENDING',
      attempts: 0,
      lastOutcome: null,
      lastAttemptAt: null,
      createdAt: at,
      updatedAt: at,
    });
    return { id, created: true };
  }

  async find(campaignId: string, contactId: string): Promise<ApiLeadContactView | null> {
    const contact = this.contacts.find((c) => c.campaignId === campaignId && c.id === contactId);
    return contact ? { ...contact } : null;
  }
}

/**
 * The real ApiLeadIntake over the in-memory store. Its CampaignRepository serves only `exists`
 * (the leads' GET routes), which no lead-push spec reaches: calling it fails loudly.
 */
export function apiLeadIntakeOver(store: LeadPushContactStore, outbox: Outbox): ApiLeadIntake {
  const campaigns = new Proxy({} as CampaignRepository, {
    get: (_target, method) => () => Promise.reject(new Error(`CampaignRepository.${String(method)} is not faked for ApiLeadIntake`)),
  });
  return new ApiLeadIntake(campaigns, store, outbox);
}
