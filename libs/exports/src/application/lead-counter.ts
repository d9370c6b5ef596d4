import { Injectable } from '@nestjs/common';
import type { ExportRange } from '../domain/export-period';
import { LeadFilter, matchesLead, needsAnalysis } from '../domain/lead-filter';
import { ContactCriteria, LeadSource } from './exports.ports';

/** The contact members of a filter and a period, for the campaigns module's SQL. */
export function contactCriteria(filter: LeadFilter, range: Pick<ExportRange, 'from' | 'to'>): ContactCriteria {
  return { statuses: filter.statuses, outcomes: filter.outcomes, activityFrom: range.from, activityTo: range.to };
}

/**
 * Counts the leads of a filter: by SQL alone when it has contact members only, else by reading the
 * matching contacts' last calls page by page (decisions.md 26.4).
 */
@Injectable()
export class LeadCounter {
  constructor(private readonly leads: LeadSource) {}

  async count(workspaceId: string, campaignId: string, filter: LeadFilter, range: Pick<ExportRange, 'from' | 'to'>): Promise<number> {
    const criteria = contactCriteria(filter, range);
    if (!needsAnalysis(filter)) return this.leads.count(workspaceId, campaignId, criteria);
    const [n] = await this.countMany(workspaceId, campaignId, [filter], criteria);
    return n;
  }

  /** Several analysis filters in one pass over the contacts `criteria` selects. */
  async countMany(workspaceId: string, campaignId: string, filters: readonly LeadFilter[], criteria: ContactCriteria): Promise<number[]> {
    const counts = filters.map(() => 0);
    for await (const page of this.leads.pages(workspaceId, campaignId, criteria)) {
      for (const lead of page) filters.forEach((f, i) => (counts[i] += matchesLead(f, lead) ? 1 : 0));
    }
    return counts;
  }
}
