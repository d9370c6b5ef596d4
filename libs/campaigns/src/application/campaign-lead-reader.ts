import type { ContactStatus } from '../domain/contact-state-machine';

/**
 * What another module may filter a campaign's contacts by (exports: counts, segments, reports).
 * Every member narrows; an absent member does not. The activity instant is the contact's last
 * attempt, or its creation when it was never dialled.
 */
export interface LeadContactFilter {
  statuses?: readonly ContactStatus[];
  /** The last attempt's outcome (a voice outcome: no_answer, busy, voicemail, carrier_failure, transferred, completed). */
  outcomes?: readonly string[];
  /** Activity at or after this instant. */
  activityFrom?: Date | null;
  /** Activity before this instant. */
  activityTo?: Date | null;
}

/** One campaign contact as a report shows it. */
export interface LeadContact {
  id: string;
  /** Upload order within the campaign: the order of every report. */
  seq: number;
  phone: string;
  name: string | null;
  fields: Record<string, string>;
  status: ContactStatus;
  attempts: number;
  lastOutcome: string | null;
  lastAttemptAt: Date | null;
  connectedPhone: string | null;
  createdAt: Date;
}

/**
 * Reads a campaign's contacts for reports, in upload order and by pages (keyset on `seq`), so a
 * reader of a million contacts holds one page at a time. Implemented over the contacts table by
 * the campaigns module; other modules never read that table themselves.
 */
export abstract class CampaignLeadReader {
  abstract count(workspaceId: string, campaignId: string, filter: LeadContactFilter): Promise<number>;
  /** Up to `limit` contacts with `seq` greater than `afterSeq`, in `seq` order. */
  /** The keys of the contacts' uploaded fields, sorted. */
  abstract fieldKeys(workspaceId: string, campaignId: string): Promise<string[]>;
  abstract page(workspaceId: string, campaignId: string, filter: LeadContactFilter, afterSeq: number, limit: number): Promise<LeadContact[]>;
}
