// In-memory fakes of the campaigns module's ports, for use-case specs (no database). Each store
// is Rollbackable, so a RollbackUnitOfWork can undo what a refused request wrote.
import { randomUUID } from 'node:crypto';
import { AppError } from '@outreach/core';
import { ApiLeadCampaign, ApiLeadContactInput, ApiLeadContactStore, ApiLeadContactView } from '../application/api-lead-intake.service';
import { ContactTimelineStore, PendingTimelineEvent } from '../application/contact-timeline';
import {
  CampaignPhoneNumberRepository,
  CampaignRepository,
  CampaignStats,
  CampaignTypeRepository,
  CONTACT_VIEW_FIELDS,
  ContactRepository,
  ContactView,
  CrmDirectory,
  EmailReadiness,
  NewContact,
  SpreadsheetReader,
  StagedContact,
  StagedUpload,
  UploadMeta,
  UploadRow,
  UploadStore,
  WhatsappReadiness,
  WorkflowDirectory,
} from '../application/campaigns.ports';
import { Campaign, CampaignProps } from '../domain/campaign.aggregate';
import { CampaignType, CampaignTypeProps } from '../domain/campaign-type.aggregate';
import { ContactRecord } from '../domain/contact';
import { recipientLocaleOf } from '../domain/recipient-locale';
import { ContactSelection } from '../domain/reengage-segments';
import { CONTACT_TRANSITIONS, ContactEvent, ContactStatus } from '../domain/contact-state-machine';
import { PLATFORM_CAMPAIGN_TYPES } from '../domain/platform-campaign-types';
import { Rollbackable } from '../../../platform/src/testing';

const TEST_EPOCH = new Date('2026-01-01T00:00:00Z');

/** Campaigns by id. Names are unique per workspace, case-insensitively (409 name_taken), like the unique index. */
export class InMemoryCampaignRepository extends CampaignRepository implements Rollbackable {
  readonly rows = new Map<string, CampaignProps>();
  /** Ids read with findByIdForUpdate, in order (the row locks a use case took). */
  readonly locked: string[] = [];
  /** Workspaces whose reservation lock was taken. */
  readonly reservationLocks: string[] = [];

  constructor(private readonly contacts?: InMemoryContactRepository) {
    super();
  }

  /** Stores a campaign as it is (no name check): the state a spec starts from. */
  seed(campaign: Campaign): Campaign {
    this.rows.set(campaign.id, campaign.toProps());
    return campaign;
  }

  /** The stored props (a copy), or undefined. */
  stored(id: string): CampaignProps | undefined {
    const props = this.rows.get(id);
    return props ? structuredClone(props) : undefined;
  }

  async insert(campaign: Campaign): Promise<void> {
    this.assertNameFree(campaign.toProps());
    this.rows.set(campaign.id, campaign.toProps());
  }

  async update(campaign: Campaign): Promise<void> {
    this.assertNameFree(campaign.toProps());
    this.rows.set(campaign.id, campaign.toProps());
  }

  async findById(workspaceId: string, id: string): Promise<Campaign | null> {
    const props = this.rows.get(id);
    return props && props.workspaceId === workspaceId ? Campaign.restore(props) : null;
  }

  async findByIdForUpdate(workspaceId: string, id: string): Promise<Campaign | null> {
    this.locked.push(id);
    return this.findById(workspaceId, id);
  }

  async findRunningForCrmConnection(workspaceId: string, connectionId: string): Promise<Campaign | null> {
    const found = [...this.rows.values()]
      .filter((p) => p.workspaceId === workspaceId && p.source === 'CRM_WEBHOOK' && p.status === 'RUNNING' && p.defaultCrmConnectionId === connectionId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0];
    if (!found) return null;
    this.locked.push(found.id);
    return Campaign.restore(found);
  }

  async listByWorkspace(workspaceId: string): Promise<Campaign[]> {
    return [...this.rows.values()]
      .filter((p) => p.workspaceId === workspaceId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .map((p) => Campaign.restore(p));
  }

  async stats(ids: readonly string[]): Promise<Map<string, CampaignStats>> {
    const out = new Map<string, CampaignStats>();
    for (const id of ids) out.set(id, { contactCount: this.contacts ? this.contacts.inCampaign(id).length : 0, receivedCalls: 0 });
    return out;
  }

  async delete(id: string): Promise<void> {
    this.rows.delete(id);
    this.contacts?.deleteCampaign(id);
  }

  async lockAndSumRunningReservations(workspaceId: string, exceptId: string): Promise<number> {
    this.reservationLocks.push(workspaceId);
    return [...this.rows.values()]
      .filter((p) => p.workspaceId === workspaceId && p.id !== exceptId && p.status === 'RUNNING')
      .reduce((sum, p) => sum + p.reservedConcurrency, 0);
  }

  async referencesAgent(workspaceId: string, agentId: string): Promise<boolean> {
    return [...this.rows.values()].some((p) => p.workspaceId === workspaceId && p.agentId === agentId);
  }

  snapshot(): unknown {
    return structuredClone(this.rows);
  }

  restore(state: unknown): void {
    this.rows.clear();
    for (const [id, props] of state as Map<string, CampaignProps>) this.rows.set(id, props);
  }

  private assertNameFree(p: CampaignProps): void {
    const clash = [...this.rows.values()].some(
      (o) => o.id !== p.id && o.workspaceId === p.workspaceId && o.name.toLowerCase() === p.name.toLowerCase(),
    );
    if (clash) throw new AppError('name_taken', { message: 'a campaign with this name exists in the workspace' });
  }
}

/**
 * Campaign types by id, the platform types included (they live in code, like the real
 * repository's). Active names are unique per workspace (409 name_taken).
 */
export class InMemoryCampaignTypeRepository extends CampaignTypeRepository implements Rollbackable {
  readonly rows = new Map<string, CampaignTypeProps>(PLATFORM_CAMPAIGN_TYPES.map((t) => [t.id, structuredClone(t)]));

  seed(type: CampaignType): CampaignType {
    this.rows.set(type.id, type.toProps());
    return type;
  }

  stored(id: string): CampaignTypeProps | undefined {
    const props = this.rows.get(id);
    return props ? structuredClone(props) : undefined;
  }

  async insert(type: CampaignType): Promise<void> {
    const p = type.toProps();
    const clash = [...this.rows.values()].some(
      (o) => o.workspaceId === p.workspaceId && o.status === 'ACTIVE' && o.name.toLowerCase() === p.name.toLowerCase(),
    );
    if (clash) throw new AppError('name_taken', { message: 'a campaign type with this name exists in the workspace' });
    this.rows.set(p.id, p);
  }

  async update(type: CampaignType): Promise<void> {
    this.rows.set(type.id, type.toProps());
  }

  async findById(id: string): Promise<CampaignType | null> {
    const props = this.rows.get(id);
    return props ? CampaignType.restore(props) : null;
  }

  async listVisible(workspaceId: string): Promise<CampaignType[]> {
    const visible = [...this.rows.values()].filter(
      (p) => p.status === 'ACTIVE' && (p.workspaceId === null || p.workspaceId === workspaceId),
    );
    // Own types first, then the platform's.
    const own = visible.filter((p) => p.workspaceId !== null);
    const platform = visible.filter((p) => p.workspaceId === null);
    return [...own, ...platform].map((p) => CampaignType.restore(p));
  }

  async findManyByIds(ids: readonly string[]): Promise<CampaignType[]> {
    return ids.flatMap((id) => {
      const props = this.rows.get(id);
      return props ? [CampaignType.restore(props)] : [];
    });
  }

  snapshot(): unknown {
    return structuredClone(this.rows);
  }

  restore(state: unknown): void {
    this.rows.clear();
    for (const [id, props] of state as Map<string, CampaignTypeProps>) this.rows.set(id, props);
  }
}

/** The columns of a contact only the execution engine reads and writes (not in the leads view). */
export type ContactAttemptColumns = Pick<
  ContactRecord,
  | 'attemptSeq'
  | 'attemptStartedAt'
  | 'attemptDeadlineAt'
  | 'currentCallId'
  | 'incompleteRetries'
  | 'phoneFirstAttempt'
  | 'lastTalkMs'
  | 'followups'
  | 'churnRounds'
  | 'leg'
  | 'messageSends'
  | 'messageTransient'
  | 'messageLegAt'
  | 'messageOutcome'
  | 'followupCallId'
>;

/** One row of the contacts table: the view (ISO dates) plus the engine's columns. */
export interface StoredContact extends ContactView, ContactAttemptColumns {
  workspaceId: string;
  /** Insertion order (the real table's sequence). */
  seq: number;
}

/** Campaign contacts: unique per (campaign, phone), as the unique index keeps them; listed oldest first. */
export class InMemoryContactRepository extends ContactRepository implements Rollbackable {
  readonly rows = new Map<string, StoredContact>();
  /** How many insertMany round trips the callers made (import batching). */
  insertCalls = 0;
  /** The rows of each `stage` call, until insertStaged takes them. */
  readonly staged: StagedContact[][] = [];
  private seq = 0;
  private uploads: InMemoryUploadStore | null = null;

  constructor(private readonly clockNow: () => Date = () => TEST_EPOCH) {
    super();
  }

  /** Stores a contact in any status (defaults: PENDING, 0 attempts, no attempt in flight); returns it. */
  seed(workspaceId: string, campaignId: string, contact: Partial<ContactView & ContactAttemptColumns> & { phone: string }): ContactView {
    const now = this.clockNow().toISOString();
    const stored: StoredContact = {
      id: randomUUID(),
      campaignId,
      altPhones: [],
      name: null,
      fields: {},
      status: 'PENDING',
      attempts: 0,
      lastAttemptAt: null,
      nextAttemptAt: null,
      lastOutcome: null,
      attemptSeq: 0,
      attemptStartedAt: null,
      attemptDeadlineAt: null,
      currentCallId: null,
      incompleteRetries: 0,
      phoneIndex: 0,
      phoneFirstAttempt: 0,
      connectedPhone: null,
      lastTalkMs: null,
      followups: 0,
      churnRounds: 0,
      referralDepth: 0,
      referredBy: null,
      leg: null,
      messageSends: 0,
      messageTransient: 0,
      messageLegAt: null,
      messageOutcome: null,
      followupCallId: null,
      ...recipientLocaleColumns(contact.phone),
      createdAt: now,
      updatedAt: now,
      ...contact,
      workspaceId,
      seq: ++this.seq,
    };
    this.rows.set(stored.id, stored);
    return view(stored);
  }

  /** The campaign's contacts, oldest first. */
  inCampaign(campaignId: string): ContactView[] {
    return [...this.rows.values()].filter((c) => c.campaignId === campaignId).sort((a, b) => a.seq - b.seq).map(view);
  }

  /** Every contact of every campaign, oldest first. */
  all(): ContactView[] {
    return [...this.rows.values()].sort((a, b) => a.seq - b.seq).map(view);
  }

  /** The whole stored row (a copy, the engine's columns included), or undefined. */
  stored(contactId: string): StoredContact | undefined {
    const c = this.rows.get(contactId);
    return c ? structuredClone(c) : undefined;
  }

  /** The campaign's phones, oldest first. */
  phones(campaignId: string): string[] {
    return this.inCampaign(campaignId).map((c) => c.phone);
  }

  deleteCampaign(campaignId: string): void {
    for (const [id, c] of this.rows) if (c.campaignId === campaignId) this.rows.delete(id);
  }

  async insertMany(workspaceId: string, campaignId: string, contacts: readonly NewContact[]): Promise<number> {
    this.insertCalls += 1;
    let created = 0;
    for (const c of contacts) {
      if (this.byPhone(campaignId, c.phone)) continue;
      this.seed(workspaceId, campaignId, {
        phone: c.phone,
        altPhones: [...c.altPhones],
        name: c.name,
        fields: { ...c.fields },
        ...(c.referral ? { referralDepth: c.referral.depth, referredBy: c.referral.referredBy } : {}),
      });
      created += 1;
    }
    return created;
  }

  /** The upload store whose rows insertStaged reads (as the SQL statement joins upload_rows). */
  readUploadsFrom(uploads: InMemoryUploadStore): this {
    this.uploads = uploads;
    return this;
  }

  async stage(rows: readonly StagedContact[]): Promise<void> {
    if (rows.length > 0) this.staged.push(structuredClone([...rows]));
  }

  async insertStaged(workspaceId: string, campaignId: string, source: StagedUpload): Promise<number> {
    if (!this.uploads) throw new Error('InMemoryContactRepository.readUploadsFrom(uploads) first');
    const cellsOf = new Map((this.uploads.rows.get(source.uploadId) ?? []).map((r) => [r.rowNo, r.cells]));
    const first = new Map<string, StagedContact>();
    for (const row of this.staged.flat().sort((a, b) => a.rowNo - b.rowNo)) if (!first.has(row.phone)) first.set(row.phone, row);
    this.staged.length = 0;
    return this.insertMany(
      workspaceId,
      campaignId,
      [...first.values()].map((row) => {
        const cells = cellsOf.get(row.rowNo) ?? [];
        const fields = Object.fromEntries(source.columns.flatMap((c, i) => (i === source.phone ? [] : [[c, cells[i] ?? '']])));
        return { phone: row.phone, altPhones: row.altPhones, name: source.name >= 0 && cells[source.name] ? cells[source.name] : null, fields };
      }),
    );
  }

  async count(campaignId: string, statuses?: readonly ContactStatus[]): Promise<number> {
    return this.inCampaign(campaignId).filter((c) => statuses === undefined || statuses.includes(c.status)).length;
  }

  async hasAny(campaignId: string): Promise<boolean> {
    return this.inCampaign(campaignId).length > 0;
  }

  async list(campaignId: string, query: { offset: number; limit: number; status?: ContactStatus }): Promise<{ items: ContactView[]; total: number }> {
    const matching = this.inCampaign(campaignId).filter((c) => query.status === undefined || c.status === query.status);
    return { items: matching.slice(query.offset, query.offset + query.limit), total: matching.length };
  }

  async findById(campaignId: string, contactId: string): Promise<ContactView | null> {
    const c = this.rows.get(contactId);
    return c && c.campaignId === campaignId ? view(c) : null;
  }

  /** The contact transition table decides which statuses an event resets, as in SQL. */
  async reset(campaignId: string, event: Extract<ContactEvent, 'retry' | 'restart'>, contactId?: string): Promise<number> {
    const { from, to } = CONTACT_TRANSITIONS[event];
    let reset = 0;
    for (const c of this.rows.values()) {
      if (c.campaignId !== campaignId || !from.includes(c.status)) continue;
      if (contactId !== undefined && c.id !== contactId) continue;
      this.freshRun(c, to);
      reset += 1;
    }
    return reset;
  }

  async reengage(campaignId: string, segment: ContactSelection): Promise<number> {
    const { from, to } = CONTACT_TRANSITIONS.reengage;
    let moved = 0;
    for (const c of this.rows.values()) {
      if (c.campaignId !== campaignId || !from.includes(c.status) || !segment.statuses.includes(c.status)) continue;
      if (segment.lastOutcomes !== null && !segment.lastOutcomes.includes(c.lastOutcome ?? '')) continue;
      if (segment.talkedLessThanMs !== null && !(c.lastTalkMs !== null && c.lastTalkMs < segment.talkedLessThanMs)) continue;
      this.freshRun(c, to);
      moved += 1;
    }
    return moved;
  }

  private freshRun(c: StoredContact, to: ContactStatus): void {
    c.status = to;
    c.attempts = 0;
    c.incompleteRetries = 0;
    c.phoneIndex = 0;
    c.phoneFirstAttempt = 0;
    c.connectedPhone = null;
    c.followups = 0;
    c.churnRounds = 0;
    c.nextAttemptAt = null;
    c.attemptDeadlineAt = null;
    c.updatedAt = this.clockNow().toISOString();
  }

  snapshot(): unknown {
    return { rows: structuredClone(this.rows), seq: this.seq };
  }

  restore(state: unknown): void {
    const s = state as { rows: Map<string, StoredContact>; seq: number };
    this.rows.clear();
    for (const [id, c] of s.rows) this.rows.set(id, c);
    this.seq = s.seq;
    this.staged.length = 0; // the staging table goes with the transaction
  }

  private byPhone(campaignId: string, phone: string): StoredContact | undefined {
    return [...this.rows.values()].find((c) => c.campaignId === campaignId && c.phone === phone);
  }
}

function view(c: StoredContact): ContactView {
  return structuredClone(Object.fromEntries(CONTACT_VIEW_FIELDS.map((field) => [field, c[field]])) as ContactView);
}

/**
 * The API lead side of the contacts table (ApiLeadIntake's store), reading the same in-memory
 * campaigns and contacts as the other fakes.
 */
export class InMemoryApiLeadContactStore extends ApiLeadContactStore {
  constructor(
    private readonly campaigns: InMemoryCampaignRepository,
    private readonly contacts: InMemoryContactRepository,
    /** Where a new contact's `created` event goes (the SQL store writes it in the insert); none: not kept. */
    private readonly timeline?: ContactTimelineStore,
  ) {
    super();
  }

  async lockCampaign(workspaceId: string, campaignId: string): Promise<ApiLeadCampaign | null> {
    const p = this.campaigns.stored(campaignId);
    return p && p.workspaceId === workspaceId ? { id: p.id, source: p.source, status: p.status, countryCode: p.countryCode, workflowId: p.workflowId } : null;
  }

  /** Statement parts are SQL: use-case specs fake the port that runs the push's statement instead. */
  admitNewInto(): string {
    throw new Error('InMemoryApiLeadContactStore cannot write into a SQL statement');
  }

  async insertOrFind(
    workspaceId: string,
    campaignId: string,
    contact: ApiLeadContactInput,
    createdEvent: PendingTimelineEvent,
  ): Promise<{ id: string; created: boolean; contact: ApiLeadContactView }> {
    const existing = this.contacts.inCampaign(campaignId).find((c) => c.phone === contact.phone);
    const id = existing?.id ?? this.contacts.seed(workspaceId, campaignId, { phone: contact.phone, name: contact.name, fields: { ...contact.fields } }).id;
    if (!existing) await this.timeline?.append([{ ...createdEvent, contactId: id }]);
    const view = await this.find(campaignId, id);
    if (!view) throw new Error(`contact ${id} vanished`);
    return { id, created: !existing, contact: view };
  }

  async liveCount(campaignId: string): Promise<number> {
    return this.contacts.inCampaign(campaignId).filter((c) => ['PENDING', 'IN_PROGRESS', 'RETRY_SCHEDULED'].includes(c.status)).length;
  }

  async find(campaignId: string, contactId: string): Promise<ApiLeadContactView | null> {
    const c = await this.contacts.findById(campaignId, contactId);
    if (!c) return null;
    return {
      id: c.id,
      campaignId: c.campaignId,
      phone: c.phone,
      name: c.name,
      fields: c.fields,
      status: c.status,
      attempts: c.attempts,
      lastOutcome: c.lastOutcome,
      leg: this.contacts.rows.get(c.id)?.leg ?? null,
      messageOutcome: this.contacts.rows.get(c.id)?.messageOutcome ?? null,
      lastAttemptAt: c.lastAttemptAt,
      nextAttemptAt: c.nextAttemptAt,
      connectedPhone: c.connectedPhone,
      recipientZone: c.recipientZone,
      recipientRegion: c.recipientRegion,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
    };
  }
}

/** Phone numbers attached to campaigns (ids only; the numbers belong to telephony). */
export class InMemoryCampaignPhoneNumbers extends CampaignPhoneNumberRepository implements Rollbackable {
  readonly attached = new Map<string, string[]>();

  async attach(campaignId: string, phoneNumberId: string): Promise<void> {
    const ids = this.attached.get(campaignId) ?? [];
    if (!ids.includes(phoneNumberId)) this.attached.set(campaignId, [...ids, phoneNumberId]);
  }

  async detach(campaignId: string, phoneNumberId: string): Promise<boolean> {
    const ids = this.attached.get(campaignId) ?? [];
    if (!ids.includes(phoneNumberId)) return false;
    this.attached.set(campaignId, ids.filter((id) => id !== phoneNumberId));
    return true;
  }

  async listIds(campaignId: string): Promise<string[]> {
    return [...(this.attached.get(campaignId) ?? [])];
  }

  snapshot(): unknown {
    return structuredClone(this.attached);
  }

  restore(state: unknown): void {
    this.attached.clear();
    for (const [id, ids] of state as Map<string, string[]>) this.attached.set(id, ids);
  }
}

/** Uploads and their rows; `find` hides another workspace's and expired uploads, as the real store does. */
export class InMemoryUploadStore extends UploadStore implements Rollbackable {
  readonly metas = new Map<string, UploadMeta & { finished: boolean }>();
  readonly rows = new Map<string, UploadRow[]>();
  /** `deleteExpired` calls (when, limit). */
  readonly purges: Array<{ now: Date; limit: number }> = [];
  /** The page sizes `readRows` was asked for, in order (memory stays flat only if readers page). */
  readonly reads: number[] = [];

  /** A finished upload with these rows (the first row of `table` is the header). */
  seed(meta: Omit<UploadMeta, 'rowCount' | 'columns'>, table: string[][]): UploadMeta {
    const [columns, ...data] = table;
    const full: UploadMeta = { ...meta, columns, rowCount: data.length };
    this.metas.set(meta.id, { ...full, finished: true });
    this.rows.set(meta.id, data.map((cells, i) => ({ rowNo: i + 1, cells })));
    return full;
  }

  async create(meta: Omit<UploadMeta, 'rowCount'>): Promise<void> {
    this.metas.set(meta.id, { ...meta, rowCount: 0, finished: false });
    this.rows.set(meta.id, []);
  }

  async appendRows(uploadId: string, rows: readonly UploadRow[]): Promise<void> {
    this.rows.get(uploadId)!.push(...structuredClone([...rows]));
  }

  async finish(uploadId: string, rowCount: number): Promise<void> {
    const meta = this.metas.get(uploadId)!;
    meta.rowCount = rowCount;
    meta.finished = true;
  }

  async find(workspaceId: string, uploadId: string, now: Date): Promise<UploadMeta | null> {
    const meta = this.metas.get(uploadId);
    if (!meta || !meta.finished || meta.workspaceId !== workspaceId || meta.expiresAt.getTime() <= now.getTime()) return null;
    const { finished: _f, ...rest } = meta;
    return structuredClone(rest);
  }

  async readRows(uploadId: string, afterRowNo: number, limit: number, columns?: readonly number[]): Promise<UploadRow[]> {
    this.reads.push(limit);
    const rows = (this.rows.get(uploadId) ?? []).filter((r) => r.rowNo > afterRowNo).slice(0, limit);
    return columns ? rows.map((r) => ({ rowNo: r.rowNo, cells: columns.map((i) => r.cells[i] ?? '') })) : rows;
  }

  async deleteExpired(now: Date, limit: number): Promise<number> {
    this.purges.push({ now, limit });
    const expired = [...this.metas.values()].filter((m) => m.expiresAt.getTime() <= now.getTime()).slice(0, limit);
    for (const m of expired) {
      this.metas.delete(m.id);
      this.rows.delete(m.id);
    }
    return expired.length;
  }

  snapshot(): unknown {
    return { metas: structuredClone(this.metas), rows: structuredClone(this.rows) };
  }

  restore(state: unknown): void {
    const s = state as { metas: Map<string, UploadMeta & { finished: boolean }>; rows: Map<string, UploadRow[]> };
    this.metas.clear();
    this.rows.clear();
    for (const [k, v] of s.metas) this.metas.set(k, v);
    for (const [k, v] of s.rows) this.rows.set(k, v);
  }
}

/** A spreadsheet already parsed into rows (the first is the header). */
export class ArraySpreadsheetReader extends SpreadsheetReader {
  constructor(private readonly table: string[][]) {
    super();
  }

  async *rows(): AsyncIterable<string[]> {
    for (const row of this.table) yield [...row];
  }
}

// ---- ports to modules not built yet ----------------------------------------------------------

/** WhatsApp readiness as a spec sets it (default: a sender and an approved template). */
export class StubWhatsappReadiness extends WhatsappReadiness {
  hasSender = true;
  template: 'missing' | 'not_approved' | 'needs_runtime_context' | 'ready' = 'ready';

  async check(): Promise<{ hasSender: boolean; template: 'missing' | 'not_approved' | 'needs_runtime_context' | 'ready' }> {
    return { hasSender: this.hasSender, template: this.template };
  }
}

/** Email readiness as a spec sets it (default: a sender and a template). */
export class StubEmailReadiness extends EmailReadiness {
  hasSender = true;
  hasTemplate = true;

  async check(): Promise<{ hasSender: boolean; hasTemplate: boolean }> {
    return { hasSender: this.hasSender, hasTemplate: this.hasTemplate };
  }
}

/** Workflows by id → status (e.g. ACTIVE, DRAFT); unknown ids answer null. */
export class InMemoryWorkflowDirectory extends WorkflowDirectory {
  readonly statuses = new Map<string, string>();

  async status(_workspaceId: string, workflowId: string): Promise<string | null> {
    return this.statuses.get(workflowId) ?? null;
  }
}

/** CRM connections by id → status, and the campaigns with an import in progress. */
export class InMemoryCrmDirectory extends CrmDirectory {
  readonly connections = new Map<string, string>();
  readonly importsInProgress = new Set<string>();

  async connectionStatus(_workspaceId: string, connectionId: string): Promise<string | null> {
    return this.connections.get(connectionId) ?? null;
  }

  async hasImportInProgress(_workspaceId: string, campaignId: string): Promise<boolean> {
    return this.importsInProgress.has(campaignId);
  }
}

/** The recipient zone and region the SQL store derives at insert (decisions.md 28.2). */
function recipientLocaleColumns(phone: string): { recipientZone: string | null; recipientRegion: string | null } {
  const locale = recipientLocaleOf(phone);
  return { recipientZone: locale.zone, recipientRegion: locale.region };
}
