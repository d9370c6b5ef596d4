import { column, defineTable } from '@outreach/platform';
import type { WebhookEndpointRecord } from '../../application/results.ports';

/** An endpoint as stored: its settings, its sealed signing secrets and its deletion mark. */
export interface StoredWebhookEndpoint extends WebhookEndpointRecord {
  secretSealed: string;
  previousSecretSealed: string | null;
  deletedAt: Date | null;
}

export const RESULT_WEBHOOK_ENDPOINTS = defineTable<StoredWebhookEndpoint>('result_webhook_endpoints', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  url: column.text('url'),
  description: column.nullableText('description'),
  enabled: column.bool('enabled'),
  disabledReason: column.nullableText('disabled_reason'),
  secretSealed: column.text('secret_sealed'),
  previousSecretSealed: column.nullableText('previous_secret_sealed'),
  previousSecretExpiresAt: column.nullableTimestamp('previous_secret_expires_at'),
  secretRotatedAt: column.nullableTimestamp('secret_rotated_at'),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
  deletedAt: column.nullableTimestamp('deleted_at'),
});

/** An endpoint's settings (WebhookEndpointRecord): what reads select, never the sealed secrets. */
export const ENDPOINT_SETTINGS = [
  'id',
  'workspaceId',
  'url',
  'description',
  'enabled',
  'disabledReason',
  'previousSecretExpiresAt',
  'secretRotatedAt',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof WebhookEndpointRecord)[];
