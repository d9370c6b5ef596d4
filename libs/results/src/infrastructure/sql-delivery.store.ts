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
import { envelopeInSpecOrder, LeadResultEnvelope } from '../domain/lead-result';
import { signingSecrets } from '../domain/webhook-endpoint';
import { WebhookSecretSealer } from './webhook-secret.sealer';

type DeliveryRow = {
  id: string;
  seq: string;
  endpoint_id: string;
  result_id: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
};

type AttemptRow = {
  delivery_id: string;
  number: number;
  attempted_at: Date;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
};

const DELIVERY_COLUMNS = `id, seq::text AS seq, endpoint_id, result_id, status, attempt_count, next_attempt_at, last_status_code,
  last_error, created_at, updated_at`;
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
    const endpoints: Array<{ id: string }> = await this.tx.manager.query(
      `SELECT id FROM result_webhook_endpoints WHERE workspace_id = $1 AND enabled AND deleted_at IS NULL ORDER BY created_at, id`,
      [workspaceId],
    );
    if (endpoints.length === 0) return [];
    const ids = endpoints.map(() => randomUUID());
    const rows: Array<{ id: string }> = await this.tx.manager.query(
      `INSERT INTO result_webhook_deliveries (id, workspace_id, endpoint_id, result_id, status, next_attempt_at, created_at, updated_at)
       SELECT d.id, $1, d.endpoint_id, $2, 'PENDING', $3, $3, $3
         FROM unnest($4::uuid[], $5::uuid[]) AS d(id, endpoint_id)
       ON CONFLICT (endpoint_id, result_id) DO NOTHING
       RETURNING id`,
      [workspaceId, resultId, now, ids, endpoints.map((e) => e.id)],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Leases the delivery and reads what sending needs, joined on the delivery's own workspace: an
   * endpoint or result of another workspace can never be paired with it.
   */
  async claim(id: string, now: Date, leaseUntil: Date): Promise<ClaimedDelivery | null> {
    if (!isUuid(id)) return null;
    const rows: Array<{
      id: string;
      workspace_id: string;
      endpoint_id: string;
      result_id: string;
      attempt_count: number;
      retry_base: number;
      url: string | null;
      usable: boolean | null;
      secret_sealed: string | null;
      previous_secret_sealed: string | null;
      previous_secret_expires_at: Date | null;
      envelope: LeadResultEnvelope | null;
    }> = await this.tx.manager.query(
      `WITH claimed AS (
         UPDATE result_webhook_deliveries SET lease_until = $3
          WHERE id = $1 AND status = 'PENDING' AND next_attempt_at <= $2 AND (lease_until IS NULL OR lease_until < $2)
         RETURNING id, workspace_id, endpoint_id, result_id, attempt_count, retry_base
       )
       SELECT c.*, e.url, (e.enabled AND e.deleted_at IS NULL) AS usable, e.secret_sealed, e.previous_secret_sealed,
              e.previous_secret_expires_at, r.envelope
         FROM claimed c
         LEFT JOIN result_webhook_endpoints e ON e.id = c.endpoint_id AND e.workspace_id = c.workspace_id
         LEFT JOIN lead_results r ON r.id = c.result_id AND r.workspace_id = c.workspace_id AND r.expires_at > $2`,
      [id, now, leaseUntil],
    );
    const r = rows[0];
    if (!r) return null;
    const usable = r.usable === true && r.url !== null && r.secret_sealed !== null && r.envelope !== null;
    return {
      id: r.id,
      workspaceId: r.workspace_id,
      endpointId: r.endpoint_id,
      resultId: r.result_id,
      attemptCount: r.attempt_count,
      retryBase: r.retry_base,
      target: usable
        ? {
            url: r.url!,
            // Secrets are unsealed here, at delivery time, and only those that sign now.
            secrets: signingSecrets(
              { secret: r.secret_sealed!, previousSecret: r.previous_secret_sealed, previousSecretExpiresAt: r.previous_secret_expires_at },
              now,
            ).map((sealed) => this.sealer.open(sealed, r.endpoint_id)),
            body: JSON.stringify(envelopeInSpecOrder(r.envelope!)),
          }
        : null,
    };
  }

  async recordAttempt(
    id: string,
    a: { number: number; at: Date; statusCode: number | null; error: string | null; durationMs: number },
    next: { status: DeliveryStatus; nextAttemptAt: Date | null },
  ): Promise<void> {
    const error = a.error === null ? null : a.error.slice(0, MAX_ERROR_LENGTH);
    await this.tx.manager.query(
      `WITH attempt AS (
         INSERT INTO result_webhook_attempts (delivery_id, number, attempted_at, status_code, error, duration_ms)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (delivery_id, number) DO NOTHING
       )
       UPDATE result_webhook_deliveries
          SET status = $7, attempt_count = GREATEST(attempt_count, $2), next_attempt_at = $8, lease_until = NULL,
              last_status_code = $4, last_error = $5, updated_at = $3
        WHERE id = $1`,
      [id, a.number, a.at, a.statusCode, error, Math.round(a.durationMs), next.status, next.nextAttemptAt],
    );
  }

  async cancel(id: string, reason: string, now: Date): Promise<void> {
    await this.tx.manager.query(
      `UPDATE result_webhook_deliveries SET status = 'CANCELED', next_attempt_at = NULL, lease_until = NULL, last_error = $2, updated_at = $3
        WHERE id = $1 AND status = 'PENDING'`,
      [id, reason, now],
    );
  }

  async cancelPendingForEndpoint(endpointId: string, reason: string, now: Date): Promise<void> {
    await this.tx.manager.query(
      `UPDATE result_webhook_deliveries SET status = 'CANCELED', next_attempt_at = NULL, lease_until = NULL, last_error = $2, updated_at = $3
        WHERE endpoint_id = $1 AND status = 'PENDING'`,
      [endpointId, reason, now],
    );
  }

  async dueIds(now: Date, limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.tx.manager.query(
      `SELECT id FROM result_webhook_deliveries
        WHERE status = 'PENDING' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until < $1)
        ORDER BY next_attempt_at, seq LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => r.id);
  }

  async list(workspaceId: string, q: DeliveryListQuery): Promise<Array<{ seq: string; delivery: DeliveryView }>> {
    const rows: DeliveryRow[] = await this.tx.manager.query(
      `SELECT ${DELIVERY_COLUMNS} FROM result_webhook_deliveries
        WHERE workspace_id = $1
          AND ($2::uuid IS NULL OR endpoint_id = $2)
          AND ($3::uuid IS NULL OR result_id = $3)
          AND ($4::text IS NULL OR status = $4)
          AND ($5::bigint IS NULL OR seq < $5)
        ORDER BY seq DESC
        LIMIT $6`,
      [workspaceId, q.endpointId ?? null, q.resultId ?? null, q.status ?? null, q.afterSeq, q.limit],
    );
    const attempts = await this.attemptsOf(rows.map((r) => r.id));
    return rows.map((r) => ({ seq: r.seq, delivery: toView(r, attempts.get(r.id) ?? []) }));
  }

  async find(workspaceId: string, id: string): Promise<DeliveryView | null> {
    if (!isUuid(id)) return null;
    const rows: DeliveryRow[] = await this.tx.manager.query(
      `SELECT ${DELIVERY_COLUMNS} FROM result_webhook_deliveries WHERE id = $1 AND workspace_id = $2`,
      [id, workspaceId],
    );
    if (!rows[0]) return null;
    return toView(rows[0], (await this.attemptsOf([id])).get(id) ?? []);
  }

  async requeue(id: string, now: Date): Promise<void> {
    await this.tx.manager.query(
      `UPDATE result_webhook_deliveries
          SET status = 'PENDING', next_attempt_at = $2, retry_base = attempt_count, last_error = NULL, updated_at = $2,
              lease_until = CASE WHEN lease_until > $2 THEN lease_until ELSE NULL END
        WHERE id = $1`,
      [id, now],
    );
  }

  private async attemptsOf(ids: string[]): Promise<Map<string, DeliveryAttemptView[]>> {
    const byDelivery = new Map<string, DeliveryAttemptView[]>();
    if (ids.length === 0) return byDelivery;
    const rows: AttemptRow[] = await this.tx.manager.query(
      `SELECT delivery_id, number, attempted_at, status_code, error, duration_ms
         FROM result_webhook_attempts WHERE delivery_id = ANY($1::uuid[]) ORDER BY delivery_id, number`,
      [ids],
    );
    for (const r of rows) {
      const list = byDelivery.get(r.delivery_id) ?? [];
      list.push({ number: r.number, attemptedAt: r.attempted_at.toISOString(), statusCode: r.status_code, error: r.error, durationMs: r.duration_ms });
      byDelivery.set(r.delivery_id, list);
    }
    return byDelivery;
  }
}

function toView(r: DeliveryRow, attempts: DeliveryAttemptView[]): DeliveryView {
  return {
    id: r.id,
    endpointId: r.endpoint_id,
    resultId: r.result_id,
    status: r.status,
    attemptCount: r.attempt_count,
    nextAttemptAt: r.next_attempt_at?.toISOString() ?? null,
    lastStatusCode: r.last_status_code,
    lastError: r.last_error,
    attempts,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}
