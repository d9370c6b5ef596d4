import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import {
  ClaimedDelivery,
  DeliveryAttemptView,
  DeliveryListQuery,
  DeliveryStatus,
  DeliveryStore,
  DeliveryView,
} from '../application/results.ports';
import { signingSecrets } from '../domain/webhook-endpoint';
import { LEAD_RESULTS } from './persistence/lead-result.table';
import { RESULT_WEBHOOK_ATTEMPTS } from './persistence/webhook-attempt.table';
import { DeliveryRecord, RESULT_WEBHOOK_DELIVERIES } from './persistence/webhook-delivery.table';
import { RESULT_WEBHOOK_ENDPOINTS } from './persistence/webhook-endpoint.table';
import { WebhookSecretSealer } from './webhook-secret.sealer';

const d = RESULT_WEBHOOK_DELIVERIES.c;
const e = RESULT_WEBHOOK_ENDPOINTS.c;
const r = LEAD_RESULTS.c;
const a = RESULT_WEBHOOK_ATTEMPTS.c;
const DELIVERIES = RESULT_WEBHOOK_DELIVERIES.name;
/** What a delivery's view shows (with its attempts). */
const SHOWN = [
  'id',
  'endpointId',
  'resultId',
  'status',
  'attemptCount',
  'nextAttemptAt',
  'lastStatusCode',
  'lastError',
  'createdAt',
  'updatedAt',
] as const;
type ShownDelivery = Pick<DeliveryRecord, (typeof SHOWN)[number]>;
const LISTED = [...SHOWN, 'seq'] as const;
/** What a sender needs of a claimed delivery, and of its endpoint. */
const CLAIMED = ['id', 'workspaceId', 'endpointId', 'resultId', 'attemptCount', 'retryBase'] as const;
const SIGNING = ['url', 'secretSealed', 'previousSecretSealed', 'previousSecretExpiresAt'] as const;
/** Due now ($1) and not leased by another sender. */
const DUE = `${d.status} = 'PENDING' AND ${d.nextAttemptAt} <= $1 AND (${d.leaseUntil} IS NULL OR ${d.leaseUntil} < $1)`;
const MAX_ERROR_LENGTH = 500;

@Injectable()
export class SqlDeliveryStore extends DeliveryStore {
  constructor(
    private readonly tx: TransactionHost,
    private readonly sealer: WebhookSecretSealer,
  ) {
    super();
  }

  async createForResult(workspaceId: string, resultId: string, now: Date): Promise<string[]> {
    const endpoints: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT ${e.id} FROM ${RESULT_WEBHOOK_ENDPOINTS.name}
        WHERE ${e.workspaceId} = $1 AND ${e.enabled} AND ${e.deletedAt} IS NULL ORDER BY ${e.createdAt}, ${e.id}`,
      [workspaceId],
    );
    if (endpoints.length === 0) return [];
    const deliveries = endpoints.map((endpoint) => ({
      id: randomUUID(),
      workspaceId,
      endpointId: RESULT_WEBHOOK_ENDPOINTS.fromRow(endpoint, ['id']).id,
      resultId,
      status: 'PENDING' as const,
      attemptCount: 0,
      retryBase: 0,
      nextAttemptAt: now,
      leaseUntil: null,
      lastStatusCode: null,
      lastError: null,
      createdAt: now,
      updatedAt: now,
    }));
    // seq comes from its sequence.
    const { sql, params } = RESULT_WEBHOOK_DELIVERIES.insertMany(
      deliveries,
      `ON CONFLICT (${d.endpointId}, ${d.resultId}) DO NOTHING RETURNING ${d.id}`,
      RESULT_WEBHOOK_DELIVERIES.keys.filter((k) => k !== 'seq'),
    );
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(sql, params);
    return rows.map((row) => RESULT_WEBHOOK_DELIVERIES.fromRow(row, ['id']).id);
  }

  /**
   * Leases the delivery and reads what sending needs, joined on the delivery's own workspace: an
   * endpoint or result of another workspace can never be paired with it.
   */
  async claim(id: string, now: Date, leaseUntil: Date): Promise<ClaimedDelivery | null> {
    if (!isUuid(id)) return null;
    const rows: Array<Record<string, unknown> & { usable: boolean | null }> = await this.tx.manager.query(
      `WITH claimed AS (
         UPDATE ${DELIVERIES} SET ${d.leaseUntil} = $3
          WHERE ${d.id} = $2 AND ${DUE}
         RETURNING ${RESULT_WEBHOOK_DELIVERIES.select(undefined, CLAIMED)}
       )
       SELECT c.*, ${RESULT_WEBHOOK_ENDPOINTS.select('e', SIGNING)}, (e.${e.enabled} AND e.${e.deletedAt} IS NULL) AS usable, r.${r.envelope}, r.${r.leadId}
         FROM claimed c
         LEFT JOIN ${RESULT_WEBHOOK_ENDPOINTS.name} e ON e.${e.id} = c.${d.endpointId} AND e.${e.workspaceId} = c.${d.workspaceId}
         LEFT JOIN ${LEAD_RESULTS.name} r ON r.${r.id} = c.${d.resultId} AND r.${r.workspaceId} = c.${d.workspaceId} AND r.${r.expiresAt} > $1`,
      [now, id, leaseUntil],
    );
    const row = rows[0];
    if (!row) return null;
    const delivery = RESULT_WEBHOOK_DELIVERIES.fromRow(row, CLAIMED);
    const { envelope, leadId } = LEAD_RESULTS.fromRow(row, ['envelope', 'leadId']);
    // usable is null without an endpoint row (left join), so the endpoint's columns are there when it is true.
    const endpoint = row.usable === true ? RESULT_WEBHOOK_ENDPOINTS.fromRow(row, SIGNING) : null;
    return {
      ...delivery,
      target:
        endpoint && envelope
          ? {
              url: endpoint.url,
              // Secrets are unsealed here, at delivery time, and only those that sign now.
              secrets: signingSecrets(
                { secret: endpoint.secretSealed, previousSecret: endpoint.previousSecretSealed, previousSecretExpiresAt: endpoint.previousSecretExpiresAt },
                now,
              ).map((sealed) => this.sealer.open(sealed, delivery.endpointId)),
              body: JSON.stringify(envelope),
              leadId,
            }
          : null,
    };
  }

  async recordAttempt(
    id: string,
    attempt: { number: number; at: Date; statusCode: number | null; error: string | null; durationMs: number },
    next: { status: DeliveryStatus; nextAttemptAt: Date | null },
  ): Promise<void> {
    const error = attempt.error === null ? null : attempt.error.slice(0, MAX_ERROR_LENGTH);
    const insert = RESULT_WEBHOOK_ATTEMPTS.insert(
      { deliveryId: id, number: attempt.number, attemptedAt: attempt.at, statusCode: attempt.statusCode, error, durationMs: Math.round(attempt.durationMs) },
      `ON CONFLICT (${a.deliveryId}, ${a.number}) DO NOTHING`,
    );
    const params = [...insert.params];
    const p = (value: unknown) => `$${params.push(value)}`;
    await this.tx.manager.query(
      `WITH attempt AS (${insert.sql})
       UPDATE ${DELIVERIES}
          SET ${d.status} = ${p(next.status)}, ${d.attemptCount} = GREATEST(${d.attemptCount}, ${p(attempt.number)}),
              ${d.nextAttemptAt} = ${p(next.nextAttemptAt)}, ${d.leaseUntil} = NULL, ${d.lastStatusCode} = ${p(attempt.statusCode)},
              ${d.lastError} = ${p(error)}, ${d.updatedAt} = ${p(attempt.at)}
        WHERE ${d.id} = ${p(id)}`,
      params,
    );
  }

  async cancel(id: string, reason: string, now: Date): Promise<void> {
    await this.tx.manager.query(
      `UPDATE ${DELIVERIES} SET ${d.status} = 'CANCELED', ${d.nextAttemptAt} = NULL, ${d.leaseUntil} = NULL, ${d.lastError} = $2, ${d.updatedAt} = $3
        WHERE ${d.id} = $1 AND ${d.status} = 'PENDING'`,
      [id, reason, now],
    );
  }

  async cancelPendingForEndpoint(endpointId: string, reason: string, now: Date): Promise<void> {
    await this.tx.manager.query(
      `UPDATE ${DELIVERIES} SET ${d.status} = 'CANCELED', ${d.nextAttemptAt} = NULL, ${d.leaseUntil} = NULL, ${d.lastError} = $2, ${d.updatedAt} = $3
        WHERE ${d.endpointId} = $1 AND ${d.status} = 'PENDING'`,
      [endpointId, reason, now],
    );
  }

  async dueIds(now: Date, limit: number): Promise<string[]> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT ${d.id} FROM ${DELIVERIES} WHERE ${DUE} ORDER BY ${d.nextAttemptAt}, ${d.seq} LIMIT $2`,
      [now, limit],
    );
    return rows.map((row) => RESULT_WEBHOOK_DELIVERIES.fromRow(row, ['id']).id);
  }

  async list(workspaceId: string, q: DeliveryListQuery): Promise<Array<{ seq: string; delivery: DeliveryView }>> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT ${RESULT_WEBHOOK_DELIVERIES.select(undefined, LISTED)} FROM ${DELIVERIES}
        WHERE ${d.workspaceId} = $1
          AND ($2::uuid IS NULL OR ${d.endpointId} = $2)
          AND ($3::uuid IS NULL OR ${d.resultId} = $3)
          AND ($4::text IS NULL OR ${d.status} = $4)
          AND ($5::bigint IS NULL OR ${d.seq} < $5)
        ORDER BY ${d.seq} DESC
        LIMIT $6`,
      [workspaceId, q.endpointId ?? null, q.resultId ?? null, q.status ?? null, q.afterSeq, q.limit],
    );
    const listed = rows.map((row) => RESULT_WEBHOOK_DELIVERIES.fromRow(row, LISTED));
    const attempts = await this.attemptsOf(listed.map((delivery) => delivery.id));
    return listed.map((delivery) => ({ seq: delivery.seq, delivery: toView(delivery, attempts.get(delivery.id) ?? []) }));
  }

  async find(workspaceId: string, id: string): Promise<DeliveryView | null> {
    if (!isUuid(id)) return null;
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT ${RESULT_WEBHOOK_DELIVERIES.select(undefined, SHOWN)} FROM ${DELIVERIES} WHERE ${d.id} = $1 AND ${d.workspaceId} = $2`,
      [id, workspaceId],
    );
    if (!rows[0]) return null;
    return toView(RESULT_WEBHOOK_DELIVERIES.fromRow(rows[0], SHOWN), (await this.attemptsOf([id])).get(id) ?? []);
  }

  async requeue(id: string, now: Date): Promise<void> {
    await this.tx.manager.query(
      `UPDATE ${DELIVERIES}
          SET ${d.status} = 'PENDING', ${d.nextAttemptAt} = $2, ${d.retryBase} = ${d.attemptCount}, ${d.lastError} = NULL, ${d.updatedAt} = $2,
              ${d.leaseUntil} = CASE WHEN ${d.leaseUntil} > $2 THEN ${d.leaseUntil} ELSE NULL END
        WHERE ${d.id} = $1`,
      [id, now],
    );
  }

  private async attemptsOf(ids: string[]): Promise<Map<string, DeliveryAttemptView[]>> {
    const byDelivery = new Map<string, DeliveryAttemptView[]>();
    if (ids.length === 0) return byDelivery;
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT ${RESULT_WEBHOOK_ATTEMPTS.select()} FROM ${RESULT_WEBHOOK_ATTEMPTS.name}
        WHERE ${a.deliveryId} = ANY($1::uuid[]) ORDER BY ${a.deliveryId}, ${a.number}`,
      [ids],
    );
    for (const row of rows) {
      const { deliveryId, ...attempt } = RESULT_WEBHOOK_ATTEMPTS.fromRow(row);
      const list = byDelivery.get(deliveryId) ?? [];
      list.push({ ...attempt, attemptedAt: attempt.attemptedAt.toISOString() });
      byDelivery.set(deliveryId, list);
    }
    return byDelivery;
  }
}

/** The API's view of a delivery: timestamps as ISO strings. */
function toView(r: ShownDelivery, attempts: DeliveryAttemptView[]): DeliveryView {
  return {
    id: r.id,
    endpointId: r.endpointId,
    resultId: r.resultId,
    status: r.status,
    attemptCount: r.attemptCount,
    nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null,
    lastStatusCode: r.lastStatusCode,
    lastError: r.lastError,
    attempts,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}
