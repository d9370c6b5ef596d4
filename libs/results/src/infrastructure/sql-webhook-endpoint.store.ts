import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import { WebhookEndpointRecord, WebhookEndpointStore } from '../application/results.ports';
import { WebhookSecretSealer } from './webhook-secret.sealer';

type Row = {
  id: string;
  workspace_id: string;
  url: string;
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  previous_secret_expires_at: Date | null;
  secret_rotated_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

/** What reads select: the settings, never the sealed secrets (only the delivery store opens those). */
const COLUMNS = `id, workspace_id, url, description, enabled, disabled_reason, previous_secret_expires_at, secret_rotated_at,
  created_at, updated_at`;

@Injectable()
export class SqlWebhookEndpointStore extends WebhookEndpointStore {
  constructor(
    private readonly tx: TransactionHost,
    private readonly sealer: WebhookSecretSealer,
  ) {
    super();
  }

  private toRecord(r: Row): WebhookEndpointRecord {
    return {
      id: r.id,
      workspaceId: r.workspace_id,
      url: r.url,
      description: r.description,
      enabled: r.enabled,
      disabledReason: r.disabled_reason,
      previousSecretExpiresAt: r.previous_secret_expires_at,
      secretRotatedAt: r.secret_rotated_at,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }

  async insert(e: WebhookEndpointRecord, secret: string): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO result_webhook_endpoints (${COLUMNS}, secret_sealed) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        e.id,
        e.workspaceId,
        e.url,
        e.description,
        e.enabled,
        e.disabledReason,
        e.previousSecretExpiresAt,
        e.secretRotatedAt,
        e.createdAt,
        e.updatedAt,
        this.sealer.seal(secret, e.id),
      ],
    );
  }

  async update(e: WebhookEndpointRecord): Promise<void> {
    await this.tx.manager.query(
      `UPDATE result_webhook_endpoints SET url = $3, description = $4, enabled = $5, disabled_reason = $6, updated_at = $7
        WHERE id = $1 AND workspace_id = $2 AND deleted_at IS NULL`,
      [e.id, e.workspaceId, e.url, e.description, e.enabled, e.disabledReason, e.updatedAt],
    );
  }

  async rotateSecret(e: WebhookEndpointRecord, secret: string): Promise<void> {
    // The sealed current secret moves to the previous slot as it is: a seal is bound to the
    // endpoint id, not to its column, so nothing is unsealed here.
    await this.tx.manager.query(
      `UPDATE result_webhook_endpoints
          SET previous_secret_sealed = secret_sealed, secret_sealed = $3, previous_secret_expires_at = $4,
              secret_rotated_at = $5, updated_at = $6
        WHERE id = $1 AND workspace_id = $2 AND deleted_at IS NULL`,
      [e.id, e.workspaceId, this.sealer.seal(secret, e.id), e.previousSecretExpiresAt, e.secretRotatedAt, e.updatedAt],
    );
  }

  async find(workspaceId: string, id: string): Promise<WebhookEndpointRecord | null> {
    if (!isUuid(id)) return null;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${COLUMNS} FROM result_webhook_endpoints WHERE id = $1 AND workspace_id = $2 AND deleted_at IS NULL`,
      [id, workspaceId],
    );
    return rows[0] ? this.toRecord(rows[0]) : null;
  }

  async list(workspaceId: string): Promise<WebhookEndpointRecord[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${COLUMNS} FROM result_webhook_endpoints WHERE workspace_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`,
      [workspaceId],
    );
    return rows.map((r) => this.toRecord(r));
  }

  async count(workspaceId: string): Promise<number> {
    // Serialises creations per workspace until commit, so the cap holds under concurrency.
    await this.tx.manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('result_webhooks:' || $1, 0))`, [workspaceId]);
    const rows: Array<{ n: number }> = await this.tx.manager.query(
      `SELECT count(*)::int AS n FROM result_webhook_endpoints WHERE workspace_id = $1 AND deleted_at IS NULL`,
      [workspaceId],
    );
    return rows[0].n;
  }

  async delete(workspaceId: string, id: string, now: Date): Promise<void> {
    await this.tx.manager.query(
      `UPDATE result_webhook_endpoints SET deleted_at = $3, enabled = false, updated_at = $3 WHERE id = $1 AND workspace_id = $2`,
      [id, workspaceId, now],
    );
  }

  async disable(id: string, reason: string, now: Date): Promise<void> {
    await this.tx.manager.query(
      `UPDATE result_webhook_endpoints SET enabled = false, disabled_reason = $2, updated_at = $3 WHERE id = $1 AND deleted_at IS NULL`,
      [id, reason, now],
    );
  }
}
