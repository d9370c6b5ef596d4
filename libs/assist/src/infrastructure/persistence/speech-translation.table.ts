import { column, defineTable } from '@outreach/platform';
import type { SpeechTranslation } from '../../application/assist.ports';

/** `speech_translations` (migration 1763700010110): PRIMARY KEY (call_id, language). */
export const SPEECH_TRANSLATIONS = defineTable<SpeechTranslation>('speech_translations', {
  callId: column.uuid('call_id'),
  workspaceId: column.uuid('workspace_id'),
  language: column.text('language'),
  text: column.text('text'),
  createdAt: column.timestamp('created_at'),
});
