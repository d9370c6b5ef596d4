import type { CampaignView } from '@outreach/campaigns';
import type { ChatMessage, ChatRole, ChatSession } from '../domain/chat';

/** A DRAFT campaign as the brief proposes it (created by the campaigns module's own service). */
export interface DraftCampaignInput {
  name: string;
  goal: string;
  description: string | null;
  agentId: string | null;
  briefText: string;
  briefFileName: string | null;
  briefUploadedAt: string | null;
  customExtractionKeys: Array<{ name: string; type: string; description: string }>;
  evaluationMetrics: Array<{ key: string; label: string; allowedValues: string[]; prompt: string }>;
}

/** Creates campaigns through the campaigns module (never by writing its tables). */
export abstract class CampaignDrafts {
  /** The created campaign; a name already taken gets a numbered suffix. */
  abstract create(workspaceId: string, input: DraftCampaignInput): Promise<CampaignView>;
  /** The workspace's campaign (404 campaign_not_found for unknown or another workspace's ids). */
  abstract require(workspaceId: string, campaignId: string): Promise<CampaignView>;
}

/** A campaign's own numbers, read through the campaigns and calls modules' query ports. */
export interface CampaignFigures {
  contactCount: number;
  /** Contacts by status (every status, zeros included). */
  contactsByStatus: Record<string, number>;
  /** Contacts by their last attempt's outcome (outcomes with at least one contact). */
  contactsByLastOutcome: Record<string, number>;
  /** Calls placed for the campaign. */
  callCount: number;
  /** How many of the latest calls the value tallies below read (at most FIGURES_CALL_SAMPLE). */
  sampledCalls: number;
  /** Extraction key → value (as text) → calls, over the sampled calls. */
  extractionValues: Record<string, Record<string, number>>;
  /** Metric key → value → calls, over the sampled calls (operator overrides applied). */
  evaluationValues: Record<string, Record<string, number>>;
}

/** How many of a campaign's latest calls the chat's value tallies read. */
export const FIGURES_CALL_SAMPLE = 200;

export abstract class CampaignFigureSource {
  abstract figures(workspaceId: string, campaignId: string): Promise<CampaignFigures>;
}

/** Chat sessions and their messages (the assist module's own tables). */
export abstract class ChatSessions {
  /** The campaign's session; null for unknown, malformed, another campaign's or workspace's ids. */
  abstract find(workspaceId: string, campaignId: string, sessionId: string): Promise<ChatSession | null>;
  /** The session's messages in order; the last `limit` when given. */
  abstract messages(sessionId: string, limit?: number): Promise<ChatMessage[]>;
  /**
   * Stores one exchange (the user's message and the answer) in one transaction, creating the
   * session when `session.id` is new. The session row is locked and its count read again: when
   * the cap is reached meanwhile nothing is stored and the answer is 'limit_reached'.
   */
  abstract appendExchange(
    session: { id: string; workspaceId: string; campaignId: string },
    exchange: Array<{ role: ChatRole; content: string }>,
    limit: number,
    now: Date,
  ): Promise<{ stored: true; session: ChatSession; messages: ChatMessage[] } | { stored: false }>;
}

/** A transcript translation, kept so the same language is asked of the model once. */
export interface SpeechTranslation {
  callId: string;
  workspaceId: string;
  language: string;
  text: string;
  createdAt: Date;
}

export abstract class SpeechTranslations {
  abstract find(workspaceId: string, callId: string, language: string): Promise<SpeechTranslation | null>;
  /** The calls' stored translations, by call id. */
  abstract forCalls(workspaceId: string, callIds: string[]): Promise<Map<string, SpeechTranslation[]>>;
  /** Stores it unless one exists for (call, language); answers the stored one. */
  abstract save(translation: SpeechTranslation): Promise<SpeechTranslation>;
}
