import { column, defineTable } from '@outreach/platform';
import type { Scope } from '@outreach/core';
import type { ApiKeyProps } from '../../domain/api-key';

/** `api_keys` (migration 1763700000100): keys are found by `key_hash` (unique index) on every request. */
export const API_KEYS = defineTable<ApiKeyProps>('api_keys', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  memberId: column.uuid('member_id'),
  name: column.text('name'),
  prefix: column.text('prefix'),
  hash: column.bytes('key_hash'),
  scopes: column.textArray<Scope>('scopes'),
  expiresAt: column.nullableTimestamp('expires_at'),
  revokedAt: column.nullableTimestamp('revoked_at'),
  lastUsedAt: column.nullableTimestamp('last_used_at'),
  createdAt: column.timestamp('created_at'),
});
