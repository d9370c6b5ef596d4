import { column, defineTable } from '@outreach/platform';
import type { MemberRole } from '@outreach/core';
import type { MemberProps, MemberStatus } from '../../domain/member';

/** `members` (migration 1763700000100). */
export const MEMBERS = defineTable<MemberProps>('members', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  email: column.text('email'),
  role: column.text<MemberRole>('role'),
  status: column.text<MemberStatus>('status'),
  createdAt: column.timestamp('created_at'),
});

/** UNIQUE (workspace_id, email). */
export const MEMBERS_EMAIL_KEY = 'members_workspace_email_key';
