import { AppError } from '@outreach/core';

/** Longest free-text reason kept with a do-not-call entry. */
export const DNC_REASON_MAX_LENGTH = 500;

/** One number a workspace must never dial or message. */
export interface DncEntry {
  id: string;
  workspaceId: string;
  /** E.164, the form contacts are stored in: look-ups compare strings exactly. */
  phone: string;
  reason: string | null;
  createdAt: Date;
}

export function normaliseReason(reason: string | null | undefined): string | null {
  if (reason === undefined || reason === null) return null;
  const trimmed = reason.trim();
  if (trimmed.length > DNC_REASON_MAX_LENGTH) {
    throw new AppError('invalid_request', { message: `reason must be at most ${DNC_REASON_MAX_LENGTH} characters` });
  }
  return trimmed === '' ? null : trimmed;
}
