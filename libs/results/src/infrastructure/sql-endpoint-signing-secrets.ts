import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import { EndpointSigningSecrets } from '../application/webhook-signing';
import { signingSecrets } from '../domain/webhook-endpoint';
import { RESULT_WEBHOOK_ENDPOINTS as E } from './persistence/webhook-endpoint.table';
import { WebhookSecretSealer } from './webhook-secret.sealer';

/** Reads and unseals an endpoint's signing secrets (as the delivery store does at delivery time). */
@Injectable()
export class SqlEndpointSigningSecrets extends EndpointSigningSecrets {
  constructor(
    private readonly tx: TransactionHost,
    private readonly sealer: WebhookSecretSealer,
  ) {
    super();
  }

  async forUrl(workspaceId: string, url: string, now: Date): Promise<string[] | null> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT ${E.select(undefined, ['id', 'secretSealed', 'previousSecretSealed', 'previousSecretExpiresAt'])} FROM ${E.name}
        WHERE ${E.c.workspaceId} = $1 AND ${E.c.url} = $2 AND ${E.c.enabled} AND ${E.c.deletedAt} IS NULL
        ORDER BY ${E.c.createdAt} LIMIT 1`,
      [workspaceId, url],
    );
    if (!rows[0]) return null;
    const e = E.fromRow(rows[0], ['id', 'secretSealed', 'previousSecretSealed', 'previousSecretExpiresAt']);
    return signingSecrets({ secret: e.secretSealed, previousSecret: e.previousSecretSealed, previousSecretExpiresAt: e.previousSecretExpiresAt }, now).map((sealed) =>
      this.sealer.open(sealed, e.id),
    );
  }
}
