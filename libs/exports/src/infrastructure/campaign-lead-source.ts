import { Injectable } from '@nestjs/common';
import { ContactCallReader } from '@outreach/calls';
import { CampaignLeadReader, CampaignViews, ContactStatus } from '@outreach/campaigns';
import { ContactCriteria, ExportCampaigns, LeadSource } from '../application/exports.ports';
import type { ExportLead } from '../domain/export-lead';

const PAGE = 1000;

/**
 * Leads from the modules that own them: contacts through the campaigns module's CampaignLeadReader,
 * last calls through the calls module's ContactCallReader, one query each per page of 1,000,
 * the next page read while the current one is written.
 */
@Injectable()
export class CampaignLeadSource extends LeadSource {
  constructor(
    private readonly contacts: CampaignLeadReader,
    private readonly calls: ContactCallReader,
  ) {
    super();
  }

  count(workspaceId: string, campaignId: string, criteria: ContactCriteria): Promise<number> {
    return this.contacts.count(workspaceId, campaignId, this.filter(criteria));
  }

  fieldKeys(workspaceId: string, campaignId: string): Promise<string[]> {
    return this.contacts.fieldKeys(workspaceId, campaignId);
  }

  async *pages(workspaceId: string, campaignId: string, criteria: ContactCriteria): AsyncIterable<ExportLead[]> {
    const filter = this.filter(criteria);
    const fetch = async (after: number) => {
      const contacts = await this.contacts.page(workspaceId, campaignId, filter, after, PAGE);
      const calls = await this.calls.finalCalls(workspaceId, contacts.map((c) => c.id));
      return { contacts, calls };
    };
    // The next page is read while the caller writes this one (one page ahead, no more).
    let next = fetch(0);
    for (;;) {
      const { contacts, calls } = await next;
      if (contacts.length === 0) return;
      const more = contacts.length === PAGE;
      if (more) {
        next = fetch(contacts[contacts.length - 1].seq);
        next.catch(() => undefined); // a caller that stops early must not leave an unhandled rejection
      }
      yield contacts.map((c) => {
        const call = calls.get(c.id);
        return {
          contactId: c.id,
          seq: c.seq,
          phone: c.phone,
          name: c.name,
          fields: c.fields ?? {},
          status: c.status,
          attempts: c.attempts,
          lastOutcome: c.lastOutcome,
          lastAttemptAt: c.lastAttemptAt,
          connectedPhone: c.connectedPhone,
          createdAt: c.createdAt,
          finalCall: call
            ? { callId: call.callId, outcome: call.outcome, startedAt: call.startedAt, durationMs: call.durationMs, extraction: call.extraction, evaluation: call.evaluation }
            : null,
        };
      });
      if (!more) return;
    }
  }

  private filter(criteria: ContactCriteria) {
    return {
      statuses: criteria.statuses as ContactStatus[] | undefined,
      outcomes: criteria.outcomes,
      activityFrom: criteria.activityFrom,
      activityTo: criteria.activityTo,
    };
  }
}

/** The campaign's name, effective extraction keys and metric keys, from CampaignViews (404 campaign_not_found). */
@Injectable()
export class CampaignViewsExportCampaigns extends ExportCampaigns {
  constructor(private readonly views: CampaignViews) {
    super();
  }

  async describe(workspaceId: string, campaignId: string): Promise<{ name: string; extractionKeys: string[]; metricKeys: string[] }> {
    const view = await this.views.get(workspaceId, campaignId);
    return { name: view.name, extractionKeys: view.effectiveExtractionKeys.map((k) => k.name), metricKeys: view.evaluationMetrics.map((m) => m.key) };
  }
}
