/** A conversation about one campaign (GET /campaigns/{id}/chat/sessions/{sid}). */
export interface ChatSession {
  id: string;
  workspaceId: string;
  campaignId: string;
  /** User messages accepted so far: the fair-use cap counts these. */
  userMessageCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export type ChatRole = 'user' | 'assistant';

export interface ChatMessage {
  id: string;
  sessionId: string;
  /** Order within the session (1, 2, …). */
  seq: number;
  role: ChatRole;
  content: string;
  createdAt: Date;
}

/** Longest chat message a user may send. */
export const MAX_CHAT_MESSAGE_CHARS = 4000;
/** How many earlier messages of the session the model rereads with each question. */
export const CHAT_HISTORY_MESSAGES = 20;

/** Whether the session may take one more user message under the fair-use cap. */
export function hasRoomFor(session: Pick<ChatSession, 'userMessageCount'> | null, limit: number): boolean {
  return (session?.userMessageCount ?? 0) < limit;
}
