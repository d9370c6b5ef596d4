import { column, defineTable } from '@outreach/platform';
import type { ChatMessage, ChatRole, ChatSession } from '../../domain/chat';

/** `campaign_chat_sessions` (migration 1763700010110). */
export const CHAT_SESSIONS = defineTable<ChatSession>('campaign_chat_sessions', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  campaignId: column.uuid('campaign_id'),
  userMessageCount: column.int('user_message_count'),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
});

/** `campaign_chat_messages` (migration 1763700010110): UNIQUE (session_id, seq). */
export const CHAT_MESSAGES = defineTable<ChatMessage>('campaign_chat_messages', {
  id: column.uuid('id'),
  sessionId: column.uuid('session_id'),
  seq: column.int('seq'),
  role: column.text<ChatRole>('role'),
  content: column.text('content'),
  createdAt: column.timestamp('created_at'),
});
