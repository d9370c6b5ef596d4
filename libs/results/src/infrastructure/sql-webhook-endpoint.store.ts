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
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  secret_rotated_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

const COLUMNS = `id, workspace_id, url, description, enabled, disabled_reason, secret_sealed, previous_secret_sealed,
  previous_secret_expires_at, secret_rotated_at, created_at, updated_at`;

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
      secret: this.sealer.open(r.secret_sealed, r.id),
      previousSecret: r.previous_secret_sealed ? this.sealer.open(r.previous_secret_sealed, r.id) : null,
      previousSecretExpiresAt: r.previous_secret_expires_at,
      secretRotatedAt: r.secret_rotated_at,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }

  async insert(e: WebhookEndpointRecord): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO result_webhook_endpoints (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        e.id,
        e.workspaceId,
        e.url,
        e.description,
        e.enabled,
        e.disabledReason,
        this.sealer.seal(e.secret, e.id),
        e.previousSecret ? this.sealer.seal(e.previousSecret, e.id) : null,
        e.previousSecretExpiresAt,
        e.secretRotatedAt,
        e.createdAt,
        e.updatedAt,
      ],
    );
  }

  async update(e: WebhookEndpointRecord): Promise<void> {
    await this.tx.manager.query(
      `UPDATE result_webhook_endpoints
          SET url = $3, description = $4, enabled = $5, disabled_reason = $6, secret_sealed = $7, previous_secret_sealed = $8,
              previous_secret_expires_at = $9, secret_rotated_at = $10, updated_at = $11
        WHERE id = $1 AND workspace_id = $2 AND deleted_at IS NULL`,
      [
        e.id,
        e.workspaceId,
        e.url,
        e.description,
        e.enabled,
        e.disabledReason,
        this.sealer.seal(e.secret, e.id),
        e.previousSecret ? this.sealer.seal(e.previousSecret, e.id) : null,
        e.previousSecretExpiresAt,
        e.secretRotatedAt,
        e.updatedAt,
      ],
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
