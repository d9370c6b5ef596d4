import type { FieldMapping } from './field-mapping';

export const CRM_CONNECTION_STATUSES = ['ACTIVE', 'DISCONNECTED'] as const;
export type CrmConnectionStatus = (typeof CRM_CONNECTION_STATUSES)[number];

export interface WebhookTopics {
  subscribed: string[];
  failed: Array<{ topic: string; reason: string }>;
  checkedAt: Date;
}

export interface CrmConnectionProps {
  id: string;
  workspaceId: string;
  slug: string;
  status: CrmConnectionStatus;
  providerEmail: string;
  display: Record<string, unknown>;
  /** The credentials, sealed (AES-256-GCM bound to the connection id); never leaves the module. */
  sealedCredentials: string;
  hasWebhookSecret: boolean;
  mappings: FieldMapping[];
  missingScopes: string[];
  webhookTopics: WebhookTopics;
  connectedAt: Date;
  disconnectedAt: Date | null;
}
