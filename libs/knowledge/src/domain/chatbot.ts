import { randomBytes } from 'node:crypto';
import { AppError } from '@outreach/core';

/** ACTIVE chatbots answer (and hold their knowledge bases: 409 knowledge_base_in_use); DISABLED ones do neither. */
export const CHATBOT_STATUSES = ['ACTIVE', 'DISABLED'] as const;
export type ChatbotStatus = (typeof CHATBOT_STATUSES)[number];

export interface ChatbotProps {
  id: string;
  workspaceId: string;
  name: string;
  instructions: string | null;
  status: ChatbotStatus;
  knowledgeBaseIds: string[];
  /** The key a website embeds to talk to this chatbot; replaced by a rotation. */
  embedKey: string;
  /** 1 at creation, +1 per rotation: a rotation names the version it replaces (compare-and-swap). */
  embedKeyVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

/** `cbk_` + 32 random bytes in base64url (43 characters). */
export function newEmbedKey(): string {
  return `cbk_${randomBytes(32).toString('base64url')}`;
}

/** A rotation from `expected` must find the chatbot still at that version; else another rotation won. */
export function assertRotatable(bot: ChatbotProps, expected: number): void {
  if (bot.embedKeyVersion !== expected) {
    throw new AppError('rotation_conflict', {
      message: `the embed key is at version ${bot.embedKeyVersion}, not ${expected}: another rotation won; read the chatbot again`,
    });
  }
}
