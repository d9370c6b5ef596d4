// In-memory fakes of the results module's ports, for use-case specs (no database, no network).
import { randomUUID } from 'node:crypto';
import {
  ApiLogEntry,
  ApiLogStore,
  ApiLogView,
  ClaimedDelivery,
  DeliveryAttemptView,
  DeliveryListQuery,
  DeliveryStatus,
  DeliveryStore,
  DeliveryView,
  FinalCallLookup,
  HostResolver,
  LeadKeyRecord,
  LeadKeyStore,
  NewLeadStatement,
  NewLeadWrite,
  ResultListQuery,
  ResultStore,
  StoredResult,
  WebhookEndpointRecord,
  WebhookEndpointStore,
  WebhookRequest,
  WebhookResponse,
  WebhookSender,
} from '../application/results.ports';
import type { NewApiLead } from '@outreach/campaigns';
import { AnalysisFacts, FinalCallFacts, LeadResultEnvelope } from '../domain/lead-result';
import { signingSecrets } from '../domain/webhook-endpoint';

// ---- leads -------------------------------------------------------------------------------

/** Lead push keys by (campaign, key): unique per (campaign, key), as the unique index keeps them. */
export class InMemoryLeadKeyStore extends LeadKeyStore {
  readonly records = new Map<string, LeadKeyRecord>();
  /**
   * Set to make the next claim lose to a concurrent push: the record it returns (if any) is stored
   * as the winner's, and the claim answers false, as the unique index would. Used once, then reset.
   */
  concurrentWinner: ((record: LeadKeyRecord) => LeadKeyRecord | null) | null = null;

  /** A completed key naming `leadId` (what a finished push leaves behind). */
  seed(record: Partial<LeadKeyRecord> & Pick<LeadKeyRecord, 'campaignId' | 'idempotencyKey' | 'workspaceId' | 'leadId'>): LeadKeyRecord {
    const full: LeadKeyRecord = {
      fingerprint: 'fp',
      lead: { phone: '+14155550100', name: null, fields: {} },
      response: null,
      createdAt: new Date('2026-01-01T00:00:00Z'),
      ...record,
    };
    this.records.set(keyOf(full.campaignId, full.idempotencyKey), structuredClone(full));
    return full;
  }

  async find(campaignId: string, key: string): Promise<LeadKeyRecord | null> {
    const record = this.records.get(keyOf(campaignId, key));
    return record ? structuredClone(record) : null;
  }

  async claim(record: LeadKeyRecord): Promise<boolean> {
    const k = keyOf(record.campaignId, record.idempotencyKey);
    if (this.concurrentWinner) {
      const winner = this.concurrentWinner(structuredClone(record));
      this.concurrentWinner = null;
      if (winner) this.records.set(k, structuredClone(winner));
      return false;
    }
    if (this.records.has(k)) return false;
    this.records.set(k, structuredClone(record));
    return true;
  }

  async firstForLead(leadId: string): Promise<LeadKeyRecord | null> {
    const first = [...this.records.values()]
      .filter((r) => r.leadId === leadId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0];
    return first ? structuredClone(first) : null;
  }
}

function keyOf(campaignId: string, key: string): string {
  return `${campaignId}\u0000${key}`;
}

// ---- results -----------------------------------------------------------------------------

/** Results by id, one per lead, numbered in insertion order (their `seq`). */
/**
 * The one-statement push (decisions.md 42.3) as a use case sees it: the calls it got, and the
 * answer it gives (`answer`, 'not_admitted' by default: every push takes the transaction). A
 * 'written' answer writes nothing here: the statement's writes are SQL, tested end to end.
 */
export class RecordingNewLeadStatement extends NewLeadStatement {
  readonly calls: Array<{ lead: NewApiLead; key: LeadKeyRecord }> = [];
  answer: NewLeadWrite = 'not_admitted';

  async write(lead: NewApiLead, key: LeadKeyRecord): Promise<NewLeadWrite> {
    this.calls.push({ lead, key });
    return this.answer;
  }
}

export class InMemoryResultStore extends ResultStore {
  readonly rows: StoredResult[] = [];
  private seq = 0;

  /** Stores a result as it is (envelope null = a tombstone); returns it. */
  seed(row: Omit<StoredResult, 'seq'>): StoredResult {
    const stored = { ...structuredClone(row), seq: String(++this.seq) };
    this.rows.push(stored);
    return stored;
  }

  async insert(workspaceId: string, envelope: LeadResultEnvelope, expiresAt: Date): Promise<boolean> {
    if (this.rows.some((r) => r.leadId === envelope.data.leadId)) return false;
    this.seed({
      id: envelope.id,
      workspaceId,
      campaignId: envelope.data.campaignId,
      leadId: envelope.data.leadId,
      envelope,
      createdAt: new Date(envelope.createdAt),
      expiresAt,
    });
    return true;
  }

  async find(workspaceId: string, id: string): Promise<StoredResult | null> {
    const row = this.rows.find((r) => r.id === id && r.workspaceId === workspaceId);
    return row ? structuredClone(row) : null;
  }

  async idForLead(leadId: string): Promise<string | null> {
    return this.rows.find((r) => r.leadId === leadId)?.id ?? null;
  }

  async list(workspaceId: string, q: ResultListQuery): Promise<Array<{ seq: string; envelope: LeadResultEnvelope }>> {
    return this.rows
      .filter(
        (r) =>
          r.workspaceId === workspaceId &&
          r.envelope !== null &&
          r.expiresAt.getTime() > q.now.getTime() &&
          (q.campaignId === undefined || r.campaignId === q.campaignId) &&
          (q.since === undefined || r.createdAt.getTime() >= q.since.getTime()) &&
          (q.afterSeq === null || Number(r.seq) > Number(q.afterSeq)),
      )
      .slice(0, q.limit)
      .map((r) => ({ seq: r.seq, envelope: structuredClone(r.envelope!) }));
  }

  async purgeExpired(now: Date, limit: number): Promise<number> {
    const expired = this.rows.filter((r) => r.envelope !== null && r.expiresAt.getTime() <= now.getTime()).slice(0, limit);
    for (const r of expired) r.envelope = null;
    return expired.length;
  }
}

/** Final calls by id, with the contact and workspace they belong to. */
export class InMemoryFinalCallLookup extends FinalCallLookup {
  readonly calls = new Map<string, { workspaceId: string; contactId: string; call: FinalCallFacts; analysis: AnalysisFacts | null }>();

  async finalCall(
    workspaceId: string,
    contactId: string,
    callId: string | null,
  ): Promise<{ call: FinalCallFacts; analysis: AnalysisFacts | null } | null> {
    const found = callId === null ? undefined : this.calls.get(callId);
    if (!found || found.workspaceId !== workspaceId || found.contactId !== contactId) return null;
    return structuredClone({ call: found.call, analysis: found.analysis });
  }
}

// ---- result webhooks ---------------------------------------------------------------------

interface StoredEndpoint {
  endpoint: WebhookEndpointRecord;
  secret: string;
  previousSecret: string | null;
  deletedAt: Date | null;
}

/** Webhook endpoints with their secrets (readable by specs, as the delivery store reads them). */
export class InMemoryWebhookEndpointStore extends WebhookEndpointStore {
  readonly rows = new Map<string, StoredEndpoint>();

  /** The signing secrets of an endpoint at `now` (current first). */
  secretsAt(id: string, now: Date): string[] {
    const row = this.rows.get(id);
    if (!row) return [];
    return signingSecrets({ secret: row.secret, previousSecret: row.previousSecret, previousSecretExpiresAt: row.endpoint.previousSecretExpiresAt }, now);
  }

  /** The stored row, deleted ones included (a copy). */
  stored(id: string): (WebhookEndpointRecord & { secret: string; previousSecret: string | null; deletedAt: Date | null }) | undefined {
    const row = this.rows.get(id);
    return row ? structuredClone({ ...row.endpoint, secret: row.secret, previousSecret: row.previousSecret, deletedAt: row.deletedAt }) : undefined;
  }

  async insert(endpoint: WebhookEndpointRecord, secret: string): Promise<void> {
    this.rows.set(endpoint.id, { endpoint: structuredClone(endpoint), secret, previousSecret: null, deletedAt: null });
  }

  async update(endpoint: WebhookEndpointRecord): Promise<void> {
    const row = this.require(endpoint.id);
    const { url, description, enabled, disabledReason, updatedAt } = endpoint;
    Object.assign(row.endpoint, structuredClone({ url, description, enabled, disabledReason, updatedAt }));
  }

  async rotateSecret(endpoint: WebhookEndpointRecord, secret: string): Promise<void> {
    const row = this.require(endpoint.id);
    row.previousSecret = row.secret;
    row.secret = secret;
    row.endpoint = structuredClone(endpoint);
  }

  async find(workspaceId: string, id: string): Promise<WebhookEndpointRecord | null> {
    const row = this.rows.get(id);
    return row && !row.deletedAt && row.endpoint.workspaceId === workspaceId ? structuredClone(row.endpoint) : null;
  }

  async list(workspaceId: string): Promise<WebhookEndpointRecord[]> {
    return [...this.rows.values()].filter((r) => !r.deletedAt && r.endpoint.workspaceId === workspaceId).map((r) => structuredClone(r.endpoint));
  }

  async count(workspaceId: string): Promise<number> {
    return (await this.list(workspaceId)).length;
  }

  async delete(workspaceId: string, id: string, now: Date): Promise<void> {
    const row = this.rows.get(id);
    if (row && row.endpoint.workspaceId === workspaceId) row.deletedAt = now;
  }

  async disable(id: string, reason: string, now: Date): Promise<void> {
    const row = this.require(id);
    row.endpoint.enabled = false;
    row.endpoint.disabledReason = reason;
    row.endpoint.updatedAt = now;
  }

  private require(id: string): StoredEndpoint {
    const row = this.rows.get(id);
    if (!row) throw new Error(`no endpoint ${id}`);
    return row;
  }
}

interface StoredDelivery {
  seq: number;
  workspaceId: string;
  view: DeliveryView;
  retryBase: number;
  leasedUntil: Date | null;
}

/**
 * Deliveries, reading endpoints and results from the other fakes like the real store joins them:
 * a claimed delivery's target is null once its endpoint is deleted or disabled, or its result expired.
 */
export class InMemoryDeliveryStore extends DeliveryStore {
  readonly rows = new Map<string, StoredDelivery>();
  private seq = 0;

  constructor(
    private readonly endpoints: InMemoryWebhookEndpointStore,
    private readonly results: InMemoryResultStore,
  ) {
    super();
  }

  /** A PENDING delivery due at `due` (no attempts yet); returns its id. */
  seed(input: { workspaceId: string; endpointId: string; resultId: string; due: Date }): string {
    const id = randomUUID();
    const at = input.due.toISOString();
    this.rows.set(id, {
      seq: ++this.seq,
      workspaceId: input.workspaceId,
      retryBase: 0,
      leasedUntil: null,
      view: {
        id,
        endpointId: input.endpointId,
        resultId: input.resultId,
        status: 'PENDING',
        attemptCount: 0,
        nextAttemptAt: at,
        lastStatusCode: null,
        lastError: null,
        attempts: [],
        createdAt: at,
        updatedAt: at,
      },
    });
    return id;
  }

  /** The stored delivery (a copy), with its lease and back-off base. */
  stored(id: string): (DeliveryView & { retryBase: number; leasedUntil: Date | null }) | undefined {
    const row = this.rows.get(id);
    return row ? structuredClone({ ...row.view, retryBase: row.retryBase, leasedUntil: row.leasedUntil }) : undefined;
  }

  async createForResult(workspaceId: string, resultId: string, now: Date): Promise<string[]> {
    const enabled = (await this.endpoints.list(workspaceId)).filter((e) => e.enabled);
    return enabled.map((e) => this.seed({ workspaceId, endpointId: e.id, resultId, due: now }));
  }

  async claim(id: string, now: Date, leaseUntil: Date): Promise<ClaimedDelivery | null> {
    const row = this.rows.get(id);
    if (!row || row.view.status !== 'PENDING') return null;
    if (row.view.nextAttemptAt === null || Date.parse(row.view.nextAttemptAt) > now.getTime()) return null;
    if (row.leasedUntil && row.leasedUntil.getTime() > now.getTime()) return null;
    row.leasedUntil = leaseUntil;
    const endpoint = await this.endpoints.find(row.workspaceId, row.view.endpointId);
    const result = await this.results.find(row.workspaceId, row.view.resultId);
    const live = endpoint && endpoint.enabled && result?.envelope && result.expiresAt.getTime() > now.getTime();
    return {
      id,
      workspaceId: row.workspaceId,
      endpointId: row.view.endpointId,
      resultId: row.view.resultId,
      attemptCount: row.view.attemptCount,
      retryBase: row.retryBase,
      target: live ? { url: endpoint.url, secrets: this.endpoints.secretsAt(endpoint.id, now), body: JSON.stringify(result.envelope), leadId: result.leadId } : null,
    };
  }

  async recordAttempt(
    id: string,
    attempt: { number: number; at: Date; statusCode: number | null; error: string | null; durationMs: number },
    next: { status: DeliveryStatus; nextAttemptAt: Date | null },
  ): Promise<void> {
    const row = this.require(id);
    const view: DeliveryAttemptView = {
      number: attempt.number,
      attemptedAt: attempt.at.toISOString(),
      statusCode: attempt.statusCode,
      error: attempt.error,
      durationMs: attempt.durationMs,
    };
    row.view.attempts.push(view);
    row.view.attemptCount = attempt.number;
    row.view.lastStatusCode = attempt.statusCode;
    row.view.lastError = attempt.error;
    row.view.status = next.status;
    row.view.nextAttemptAt = next.nextAttemptAt?.toISOString() ?? null;
    row.view.updatedAt = attempt.at.toISOString();
    row.leasedUntil = null;
  }

  async cancel(id: string, reason: string, now: Date): Promise<void> {
    const row = this.require(id);
    row.view.status = 'CANCELED';
    row.view.lastError = reason;
    row.view.nextAttemptAt = null;
    row.view.updatedAt = now.toISOString();
    row.leasedUntil = null;
  }

  async cancelPendingForEndpoint(endpointId: string, reason: string, now: Date): Promise<void> {
    for (const row of this.rows.values()) {
      if (row.view.endpointId === endpointId && row.view.status === 'PENDING') await this.cancel(row.view.id, reason, now);
    }
  }

  async dueIds(now: Date, limit: number): Promise<string[]> {
    return [...this.rows.values()]
      .filter((r) => r.view.status === 'PENDING' && r.view.nextAttemptAt !== null && Date.parse(r.view.nextAttemptAt) <= now.getTime())
      .sort((a, b) => a.seq - b.seq)
      .slice(0, limit)
      .map((r) => r.view.id);
  }

  /** Newest first; `afterSeq` is the last position of the previous page. */
  async list(workspaceId: string, q: DeliveryListQuery): Promise<Array<{ seq: string; delivery: DeliveryView }>> {
    return [...this.rows.values()]
      .filter(
        (r) =>
          r.workspaceId === workspaceId &&
          (q.endpointId === undefined || r.view.endpointId === q.endpointId) &&
          (q.resultId === undefined || r.view.resultId === q.resultId) &&
          (q.status === undefined || r.view.status === q.status) &&
          (q.afterSeq === null || r.seq < Number(q.afterSeq)),
      )
      .sort((a, b) => b.seq - a.seq)
      .slice(0, q.limit)
      .map((r) => ({ seq: String(r.seq), delivery: structuredClone(r.view) }));
  }

  async find(workspaceId: string, id: string): Promise<DeliveryView | null> {
    const row = this.rows.get(id);
    return row && row.workspaceId === workspaceId ? structuredClone(row.view) : null;
  }

  async requeue(id: string, now: Date): Promise<void> {
    const row = this.require(id);
    row.view.status = 'PENDING';
    row.view.nextAttemptAt = now.toISOString();
    row.view.updatedAt = now.toISOString();
    row.retryBase = row.view.attemptCount;
    row.leasedUntil = null;
  }

  private require(id: string): StoredDelivery {
    const row = this.rows.get(id);
    if (!row) throw new Error(`no delivery ${id}`);
    return row;
  }
}

/** DNS as a spec sets it: host → addresses; unknown hosts do not resolve. */
export class StaticHostResolver extends HostResolver {
  readonly hosts = new Map<string, string[]>();
  readonly asked: string[] = [];

  async resolve(hostname: string): Promise<string[] | null> {
    this.asked.push(hostname);
    return this.hosts.get(hostname) ?? null;
  }
}

/** Answers each send with the next scripted response (then the last one again); records every request. */
export class ScriptedWebhookSender extends WebhookSender {
  readonly requests: WebhookRequest[] = [];
  private readonly script: WebhookResponse[] = [];

  /** Queues responses: a status code, or a full response (statusCode null = no answer). */
  answer(...responses: Array<number | Partial<WebhookResponse>>): this {
    for (const r of responses) {
      this.script.push(
        typeof r === 'number'
          ? { statusCode: r, retryAfter: undefined, error: r >= 200 && r < 300 ? null : `HTTP ${r}`, durationMs: 12 }
          : { statusCode: null, retryAfter: undefined, error: null, durationMs: 12, ...r },
      );
    }
    return this;
  }

  async send(request: WebhookRequest): Promise<WebhookResponse> {
    this.requests.push(structuredClone(request));
    const response = this.script.length > 1 ? this.script.shift()! : this.script[0];
    if (!response) throw new Error('ScriptedWebhookSender: no response scripted');
    return { ...response };
  }
}

// ---- API logs ----------------------------------------------------------------------------

/** API log lines, listed newest first. */
export class InMemoryApiLogStore extends ApiLogStore {
  readonly entries: Array<{ seq: number; entry: ApiLogEntry; id: string }> = [];
  private seq = 0;

  async insertMany(entries: readonly ApiLogEntry[]): Promise<void> {
    for (const entry of entries) this.entries.push({ seq: ++this.seq, entry: structuredClone(entry), id: randomUUID() });
  }

  async list(workspaceId: string, campaignId: string, beforeSeq: string | null, limit: number): Promise<Array<{ seq: string; log: ApiLogView }>> {
    return this.entries
      .filter((e) => e.entry.workspaceId === workspaceId && e.entry.campaignId === campaignId && (beforeSeq === null || e.seq < Number(beforeSeq)))
      .sort((a, b) => b.seq - a.seq)
      .slice(0, limit)
      .map(({ seq, entry, id }) => ({
        seq: String(seq),
        log: {
          id,
          method: entry.method,
          route: entry.route,
          path: entry.path,
          status: entry.status,
          error: entry.errorCode,
          latencyMs: entry.latencyMs,
          keyId: entry.keyId,
          requestId: entry.requestId,
          createdAt: entry.at.toISOString(),
        },
      }));
  }

  async purgeOlderThan(cutoff: Date, limit: number): Promise<number> {
    const old = this.entries.filter((e) => e.entry.at.getTime() < cutoff.getTime()).slice(0, limit);
    for (const o of old) this.entries.splice(this.entries.indexOf(o), 1);
    return old.length;
  }
}
