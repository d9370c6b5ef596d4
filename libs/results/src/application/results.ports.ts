import { AnalysisFacts, FinalCallFacts, LeadResultEnvelope } from '../domain/lead-result';
import { Lead } from '../domain/lead';
import type { NewApiLead } from '@outreach/campaigns';

// ---- leads -------------------------------------------------------------------------------

/** What a push answers (and what a replay answers again, verbatim). */
export interface LeadPushBody {
  id: string;
  campaignId: string;
  idempotencyKey: string;
  phone: string;
  name: string | null;
  fields: Record<string, unknown>;
  status: string;
  attempts: number;
  resultId: string | null;
  /** True when the campaign already had a lead for this phone and the key now names that lead. */
  deduplicated: boolean;
  createdAt: string;
}

export interface LeadKeyRecord {
  campaignId: string;
  idempotencyKey: string;
  workspaceId: string;
  leadId: string | null;
  fingerprint: string;
  lead: Lead;
  response: LeadPushBody | null;
  createdAt: Date;
}

/** The lead push's idempotency keys: unique per (campaign, key), never expiring. */
export abstract class LeadKeyStore {
  abstract find(campaignId: string, key: string): Promise<LeadKeyRecord | null>;
  /**
   * Claims the key with its answer, as the LAST statement of the push's transaction (decisions.md
   * 42.2): false when a push of this key committed before (the caller rolls back and replays it).
   * A push of the same key still in flight past a short lock wait → 409 idempotency_in_progress
   * with Retry-After: 1 (the wait's bound stays set to the transaction's end).
   */
  abstract claim(record: LeadKeyRecord): Promise<boolean>;
  /** The first key that named the lead (the lead's own key), with its campaign and workspace. */
  abstract firstForLead(leadId: string): Promise<LeadKeyRecord | null>;
}

/** What the one-statement push did (decisions.md 42.3). */
export type NewLeadWrite = 'written' | 'not_admitted' | 'key_taken';

/**
 * The push of a lead for a new contact in one statement: one round trip and one implicit
 * transaction (decisions.md 42.3). It writes the contact, its timeline event, the campaign's count
 * and dispatch job (parts written by campaigns, ApiLeadIntake.admitNewInto), then the key with its
 * answer, or nothing: 'not_admitted' when the campaign no longer takes the lead as remembered or
 * already has the phone, 'key_taken' when a push of the key committed before. A push of the key
 * still in flight past the key's lock bound → 409 idempotency_in_progress, as LeadKeyStore.claim.
 * Inside a caller's transaction it writes nothing and answers 'not_admitted' (the statement
 * would be the caller's, not its own).
 */
export abstract class NewLeadStatement {
  abstract write(lead: NewApiLead, key: LeadKeyRecord): Promise<NewLeadWrite>;
}

// ---- results -----------------------------------------------------------------------------

export interface StoredResult {
  id: string;
  seq: string;
  workspaceId: string;
  campaignId: string;
  leadId: string;
  /** Null once purged (a tombstone). */
  envelope: LeadResultEnvelope | null;
  createdAt: Date;
  expiresAt: Date;
}

export interface ResultListQuery {
  campaignId?: string;
  since?: Date;
  afterSeq: string | null;
  limit: number;
  now: Date;
}

export abstract class ResultStore {
  /**
   * Stores the envelope unless the lead has one already (false then). Inside a transaction;
   * results of one workspace are written one at a time, so their sequence follows commit order
   * and a cursor never passes a result that commits later.
   */
  abstract insert(workspaceId: string, envelope: LeadResultEnvelope, expiresAt: Date): Promise<boolean>;
  abstract find(workspaceId: string, id: string): Promise<StoredResult | null>;
  abstract idForLead(leadId: string): Promise<string | null>;
  /** Unexpired results in insertion order after the cursor position. */
  abstract list(workspaceId: string, query: ResultListQuery): Promise<Array<{ seq: string; envelope: LeadResultEnvelope }>>;
  /** Replaces expired envelopes by tombstones; returns how many. */
  abstract purgeExpired(now: Date, limit: number): Promise<number>;
}

/** The call that ended a lead, with its analysis (the calls module's records). */
export abstract class FinalCallLookup {
  /** The call `callId` if it is a call of this contact in this workspace; null otherwise. */
  abstract finalCall(
    workspaceId: string,
    contactId: string,
    callId: string | null,
  ): Promise<{ call: FinalCallFacts; analysis: AnalysisFacts | null } | null>;
}

// ---- result webhooks ---------------------------------------------------------------------

/**
 * An endpoint's settings. Its signing secrets are not part of it: they are written by insert and
 * rotateSecret, and read (unsealed) only by the delivery store when a delivery is sent, so reading
 * or editing an endpoint never touches them.
 */
export interface WebhookEndpointRecord {
  id: string;
  workspaceId: string;
  url: string;
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  previousSecretExpiresAt: Date | null;
  secretRotatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export abstract class WebhookEndpointStore {
  abstract insert(endpoint: WebhookEndpointRecord, secret: string): Promise<void>;
  /** Writes the settings (url, description, enabled, disabledReason, updatedAt); never the secrets. */
  abstract update(endpoint: WebhookEndpointRecord): Promise<void>;
  /** The current secret becomes the previous one (signing until endpoint.previousSecretExpiresAt); `secret` is the new current one. */
  abstract rotateSecret(endpoint: WebhookEndpointRecord, secret: string): Promise<void>;
  /** The workspace's endpoint (not deleted); null for unknown, malformed or foreign ids. */
  abstract find(workspaceId: string, id: string): Promise<WebhookEndpointRecord | null>;
  abstract list(workspaceId: string): Promise<WebhookEndpointRecord[]>;
  abstract count(workspaceId: string): Promise<number>;
  abstract delete(workspaceId: string, id: string, now: Date): Promise<void>;
  /** A receiver answered 410 Gone: switch the endpoint off. */
  abstract disable(id: string, reason: string, now: Date): Promise<void>;
}

export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED', 'CANCELED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryAttemptView {
  number: number;
  attemptedAt: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface DeliveryView {
  id: string;
  endpointId: string;
  resultId: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  attempts: DeliveryAttemptView[];
  createdAt: string;
  updatedAt: string;
}

/** A delivery leased to one sender, with what it needs to send. */
export interface ClaimedDelivery {
  id: string;
  workspaceId: string;
  endpointId: string;
  resultId: string;
  attemptCount: number;
  /** Attempts made before the last manual redeliver (the back-off schedule starts again after it). */
  retryBase: number;
  /** Null when the endpoint was deleted or switched off, or the result expired. */
  target: { url: string; secrets: string[]; body: string; leadId: string } | null;
}

export interface DeliveryListQuery {
  endpointId?: string;
  resultId?: string;
  status?: DeliveryStatus;
  afterSeq: string | null;
  limit: number;
}

export abstract class DeliveryStore {
  /** One PENDING delivery per enabled endpoint of the result's workspace, due now; their ids. */
  abstract createForResult(workspaceId: string, resultId: string, now: Date): Promise<string[]>;
  /** Leases a due PENDING delivery until `leaseUntil`; null when it is not due, not pending or leased. */
  abstract claim(id: string, now: Date, leaseUntil: Date): Promise<ClaimedDelivery | null>;
  abstract recordAttempt(
    id: string,
    attempt: { number: number; at: Date; statusCode: number | null; error: string | null; durationMs: number },
    next: { status: DeliveryStatus; nextAttemptAt: Date | null },
  ): Promise<void>;
  abstract cancel(id: string, reason: string, now: Date): Promise<void>;
  abstract cancelPendingForEndpoint(endpointId: string, reason: string, now: Date): Promise<void>;
  abstract dueIds(now: Date, limit: number): Promise<string[]>;
  abstract list(workspaceId: string, query: DeliveryListQuery): Promise<Array<{ seq: string; delivery: DeliveryView }>>;
  abstract find(workspaceId: string, id: string): Promise<DeliveryView | null>;
  /** Back to PENDING, due now (attempt history kept). */
  abstract requeue(id: string, now: Date): Promise<void>;
}

/** Resolves a host name to its addresses (DNS), to refuse webhook URLs that point inside. */
export abstract class HostResolver {
  /** The addresses, or null when the name does not resolve. */
  abstract resolve(hostname: string): Promise<string[] | null>;
}

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivateTargets: boolean;
}

export interface WebhookResponse {
  /** Null when no HTTP answer came (refused, timed out, blocked target…). */
  statusCode: number | null;
  retryAfter: string | undefined;
  error: string | null;
  durationMs: number;
}

/** Sends one signed POST. Never throws: failures come back as a response without status. */
export abstract class WebhookSender {
  abstract send(request: WebhookRequest): Promise<WebhookResponse>;
}

// ---- API logs ----------------------------------------------------------------------------

export interface ApiLogEntry {
  workspaceId: string;
  campaignId: string;
  method: string;
  route: string;
  path: string;
  status: number;
  errorCode: string | null;
  latencyMs: number;
  keyId: string | null;
  requestId: string | null;
  at: Date;
}

export interface ApiLogView {
  id: string;
  method: string;
  route: string;
  path: string;
  status: number;
  error: string | null;
  latencyMs: number;
  keyId: string | null;
  requestId: string | null;
  createdAt: string;
}

export abstract class ApiLogStore {
  /** One statement for every entry, in order (their seq follows it). */
  abstract insertMany(entries: readonly ApiLogEntry[]): Promise<void>;
  /** Newest first, before the cursor position. */
  abstract list(workspaceId: string, campaignId: string, beforeSeq: string | null, limit: number): Promise<Array<{ seq: string; log: ApiLogView }>>;
  abstract purgeOlderThan(cutoff: Date, limit: number): Promise<number>;
}
