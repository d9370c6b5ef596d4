import { ContactSelection } from '../domain/reengage-segments';
import { Campaign } from '../domain/campaign.aggregate';
import { CampaignType } from '../domain/campaign-type.aggregate';
import { ContactRecord } from '../domain/contact';
import { ContactEvent, ContactStatus } from '../domain/contact-state-machine';
import { WithIsoDates } from './iso-dates';

// ---- persistence ports (implemented in infrastructure/) -----------------------------------

export interface CampaignStats {
  contactCount: number;
  receivedCalls: number;
}

export abstract class CampaignRepository {
  /** Inserts; 409 name_taken when the workspace has a campaign of that name. */
  abstract insert(campaign: Campaign): Promise<void>;
  /** Saves the aggregate's fields; 409 name_taken on a clash. */
  abstract update(campaign: Campaign): Promise<void>;
  /** The workspace's campaign; null for unknown, malformed or another workspace's ids. */
  abstract findById(workspaceId: string, id: string): Promise<Campaign | null>;
  /** Same, locking the row until the transaction ends (lifecycle changes). */
  abstract findByIdForUpdate(workspaceId: string, id: string): Promise<Campaign | null>;
  abstract listByWorkspace(workspaceId: string): Promise<Campaign[]>;
  /**
   * The oldest RUNNING CRM_WEBHOOK campaign whose defaultCrmConnectionId is `connectionId`,
   * share-locked until the transaction ends (FOR KEY SHARE, as lead pushes: webhook deliveries do not
   * wait for each other, a pause waits for the contacts being added); null when none.
   */
  abstract findRunningForCrmConnection(workspaceId: string, connectionId: string): Promise<Campaign | null>;
  abstract stats(ids: readonly string[]): Promise<Map<string, CampaignStats>>;
  abstract delete(id: string): Promise<void>;
  /**
   * Serialises reservation changes of one workspace until the transaction ends, then returns the
   * sum of reservations of its RUNNING campaigns other than `exceptId`.
   */
  abstract lockAndSumRunningReservations(workspaceId: string, exceptId: string): Promise<number>;
  abstract referencesAgent(workspaceId: string, agentId: string): Promise<boolean>;
}

export abstract class CampaignTypeRepository {
  /** Inserts; 409 name_taken when the workspace has an active type of that name. */
  abstract insert(type: CampaignType): Promise<void>;
  abstract update(type: CampaignType): Promise<void>;
  /** Any type by id (own, platform or another workspace's: callers check visibility). */
  abstract findById(id: string): Promise<CampaignType | null>;
  /** The workspace's active types and the active platform types. */
  abstract listVisible(workspaceId: string): Promise<CampaignType[]>;
  abstract findManyByIds(ids: readonly string[]): Promise<CampaignType[]>;
}

/** A contact to insert (phones already normalised to E.164). */
export interface NewContact {
  phone: string;
  altPhones: string[];
  name: string | null;
  fields: Record<string, string>;
  /** A contact named on another contact's call (referralMaxDepth, decisions.md 35.6). */
  referral?: { depth: number; referredBy: string };
}

/** What the leads listing shows of a contact. */
export const CONTACT_VIEW_FIELDS = [
  'id',
  'campaignId',
  'phone',
  'altPhones',
  'name',
  'fields',
  'status',
  'attempts',
  'lastAttemptAt',
  'nextAttemptAt',
  'lastOutcome',
  'phoneIndex',
  'connectedPhone',
  'referralDepth',
  'referredBy',
  'recipientZone',
  'recipientRegion',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof ContactRecord>;

export type ContactView = WithIsoDates<Pick<ContactRecord, (typeof CONTACT_VIEW_FIELDS)[number]>>;

/** A valid upload row on its way into a campaign: its phones normalised; its other cells stay in the upload. */
export interface StagedContact {
  rowNo: number;
  phone: string;
  altPhones: string[];
}

/** Where staged rows take their other cells from: the upload, its columns, the phone column and the name column (-1: none). */
export interface StagedUpload {
  uploadId: string;
  columns: readonly string[];
  phone: number;
  name: number;
}

export abstract class ContactRepository {
  /** Inserts, skipping phones the campaign has already; returns how many were new. */
  abstract insertMany(workspaceId: string, campaignId: string, contacts: readonly NewContact[]): Promise<number>;
  /**
   * Keeps upload rows for `insertStaged`, private to the current transaction (a staging table filled
   * by `COPY … FROM STDIN`; decisions.md 43).
   */
  abstract stage(rows: readonly StagedContact[]): Promise<void>;
  /**
   * Inserts what `stage` kept, in one statement: the first row of each phone, in row order; fields
   * from the upload's other columns, the name from its name column; phones the campaign has are
   * skipped. Empties the stage; returns how many contacts were new.
   */
  abstract insertStaged(workspaceId: string, campaignId: string, source: StagedUpload): Promise<number>;
  /** Contacts of the campaign, all or those in one of `statuses`. */
  abstract count(campaignId: string, statuses?: readonly ContactStatus[]): Promise<number>;
  abstract hasAny(campaignId: string): Promise<boolean>;
  abstract list(campaignId: string, query: { offset: number; limit: number; status?: ContactStatus }): Promise<{ items: ContactView[]; total: number }>;
  abstract findById(campaignId: string, contactId: string): Promise<ContactView | null>;
  /**
   * A manual retry (one contact) or a campaign restart (all of them): the contacts `event` leaves
   * from (CONTACT_TRANSITIONS) move to its target status with fresh attempts. Returns how many moved.
   */
  abstract reset(campaignId: string, event: Extract<ContactEvent, 'retry' | 'restart'>, contactId?: string): Promise<number>;
  /**
   * Re-engage (decisions.md 35.1): the finished contacts of `segment` that the `reengage` transition
   * leaves from move to its target with a fresh run. Returns how many moved.
   */
  abstract reengage(campaignId: string, segment: ContactSelection): Promise<number>;
}

export abstract class CampaignPhoneNumberRepository {
  /** Attaches (idempotent). */
  abstract attach(campaignId: string, phoneNumberId: string): Promise<void>;
  /** Detaches; false when it was not attached. */
  abstract detach(campaignId: string, phoneNumberId: string): Promise<boolean>;
  abstract listIds(campaignId: string): Promise<string[]>;
}

export interface UploadMeta {
  id: string;
  workspaceId: string;
  fileName: string;
  columns: string[];
  rowCount: number;
  expiresAt: Date;
  createdAt: Date;
}

export interface UploadRow {
  rowNo: number;
  cells: string[];
}

export abstract class UploadStore {
  abstract create(meta: Omit<UploadMeta, 'rowCount'>): Promise<void>;
  abstract appendRows(uploadId: string, rows: readonly UploadRow[]): Promise<void>;
  abstract finish(uploadId: string, rowCount: number): Promise<void>;
  /** The workspace's upload if it has not expired at `now`. */
  abstract find(workspaceId: string, uploadId: string, now: Date): Promise<UploadMeta | null>;
  /**
   * Rows after `afterRowNo`, in order (keyset paging: memory stays flat); with `columns`, each
   * row's cells are only those columns' (0-based indexes), in that order.
   */
  abstract readRows(uploadId: string, afterRowNo: number, limit: number, columns?: readonly number[]): Promise<UploadRow[]>;
  abstract deleteExpired(now: Date, limit: number): Promise<number>;
}

/** Reads an uploaded file row by row (first row = header). */
export abstract class SpreadsheetReader {
  abstract rows(file: { buffer: Buffer; fileName: string; mimeType: string }): AsyncIterable<string[]>;
}

// ---- ports to other modules: messaging implements the first two; the others keep a default adapter answering "none configured" until their module is built

/** WhatsApp senders and templates (the messaging module: a CONNECTED sender and the outreach template). */
export abstract class WhatsappReadiness {
  abstract check(
    workspaceId: string,
    outreachTemplateId: string | null,
  ): Promise<{ hasSender: boolean; template: 'missing' | 'not_approved' | 'needs_runtime_context' | 'ready' }>;
}

/** Email sender mailboxes and templates (the messaging module: the workspace's default mailbox and default template). */
export abstract class EmailReadiness {
  abstract check(workspaceId: string, campaignId: string): Promise<{ hasSender: boolean; hasTemplate: boolean }>;
}

/** Workflows (future workflows module). Null: no such workflow, or workflows not enabled. */
export abstract class WorkflowDirectory {
  abstract status(workspaceId: string, workflowId: string): Promise<string | null>;
}

/** CRM connections and imports: implemented by the crm module (bound through CrmDirectoryBinding). */
export abstract class CrmDirectory {
  /** The connection's status, or null when there is none. */
  abstract connectionStatus(workspaceId: string, connectionId: string): Promise<string | null>;
  /** A CRM import into the campaign is pending or running. */
  abstract hasImportInProgress(workspaceId: string, campaignId: string): Promise<boolean>;
}
