import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import { WebhookEndpointRecord, WebhookEndpointStore } from '../application/results.ports';
import { ENDPOINT_SETTINGS, RESULT_WEBHOOK_ENDPOINTS } from './persistence/webhook-endpoint.table';
import { WebhookSecretSealer } from './webhook-secret.sealer';

const e = RESULT_WEBHOOK_ENDPOINTS.c;
/** Reads select the settings, never the sealed secrets (only the delivery store opens those). */
const SELECT = `SELECT ${RESULT_WEBHOOK_ENDPOINTS.select(undefined, ENDPOINT_SETTINGS)} FROM ${RESULT_WEBHOOK_ENDPOINTS.name}`;
const EDITABLE = ['url', 'description', 'enabled', 'disabledReason', 'updatedAt'] as const;
const NOT_DELETED = `${e.deletedAt} IS NULL`;

@Injectable()
export class SqlWebhookEndpointStore extends WebhookEndpointStore {
  constructor(
    private readonly tx: TransactionHost,
    private readonly sealer: WebhookSecretSealer,
  ) {
    super();
  }

  async insert(endpoint: WebhookEndpointRecord, secret: string): Promise<void> {
    const { sql, params } = RESULT_WEBHOOK_ENDPOINTS.insert({
      ...endpoint,
      secretSealed: this.sealer.seal(secret, endpoint.id),
      previousSecretSealed: null,
      deletedAt: null,
    });
    await this.tx.manager.query(sql, params);
  }

  async update(endpoint: WebhookEndpointRecord): Promise<void> {
    const { sql, params } = RESULT_WEBHOOK_ENDPOINTS.update(endpoint, ['id', 'workspaceId'], EDITABLE);
    await this.tx.manager.query(`${sql} AND ${NOT_DELETED}`, params);
  }

  async rotateSecret(endpoint: WebhookEndpointRecord, secret: string): Promise<void> {
    // The sealed current secret moves to the previous slot as it is: a seal is bound to the
    // endpoint id, not to its column, so nothing is unsealed here.
    await this.tx.manager.query(
      `UPDATE ${RESULT_WEBHOOK_ENDPOINTS.name}
          SET ${e.previousSecretSealed} = ${e.secretSealed}, ${e.secretSealed} = $3, ${e.previousSecretExpiresAt} = $4,
              ${e.secretRotatedAt} = $5, ${e.updatedAt} = $6
        WHERE ${e.id} = $1 AND ${e.workspaceId} = $2 AND ${NOT_DELETED}`,
      [
        endpoint.id,
        endpoint.workspaceId,
        this.sealer.seal(secret, endpoint.id),
        endpoint.previousSecretExpiresAt,
        endpoint.secretRotatedAt,
        endpoint.updatedAt,
      ],
    );
  }

  async find(workspaceId: string, id: string): Promise<WebhookEndpointRecord | null> {
    if (!isUuid(id)) return null;
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `${SELECT} WHERE ${e.id} = $1 AND ${e.workspaceId} = $2 AND ${NOT_DELETED}`,
      [id, workspaceId],
    );
    return rows[0] ? RESULT_WEBHOOK_ENDPOINTS.fromRow(rows[0], ENDPOINT_SETTINGS) : null;
  }

  async list(workspaceId: string): Promise<WebhookEndpointRecord[]> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `${SELECT} WHERE ${e.workspaceId} = $1 AND ${NOT_DELETED} ORDER BY ${e.createdAt}, ${e.id}`,
      [workspaceId],
    );
    return rows.map((row) => RESULT_WEBHOOK_ENDPOINTS.fromRow(row, ENDPOINT_SETTINGS));
  }

  async count(workspaceId: string): Promise<number> {
    // Serialises creations per workspace until commit, so the cap holds under concurrency.
    await this.tx.manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('result_webhooks:' || $1, 0))`, [workspaceId]);
    const rows: Array<{ n: number }> = await this.tx.manager.query(
      `SELECT count(*)::int AS n FROM ${RESULT_WEBHOOK_ENDPOINTS.name} WHERE ${e.workspaceId} = $1 AND ${NOT_DELETED}`,
      [workspaceId],
    );
    return rows[0].n;
  }

  async delete(workspaceId: string, id: string, now: Date): Promise<void> {
    await this.tx.manager.query(
      `UPDATE ${RESULT_WEBHOOK_ENDPOINTS.name} SET ${e.deletedAt} = $3, ${e.enabled} = false, ${e.updatedAt} = $3
        WHERE ${e.id} = $1 AND ${e.workspaceId} = $2`,
      [id, workspaceId, now],
    );
  }

  async disable(id: string, reason: string, now: Date): Promise<void> {
    await this.tx.manager.query(
      `UPDATE ${RESULT_WEBHOOK_ENDPOINTS.name} SET ${e.enabled} = false, ${e.disabledReason} = $2, ${e.updatedAt} = $3
        WHERE ${e.id} = $1 AND ${NOT_DELETED}`,
      [id, reason, now],
    );
  }
}
