import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { CampaignView } from '@outreach/campaigns';
import { AppConfig, AppError, Clock, isUuid } from '@outreach/core';
import { CHAT_HISTORY_MESSAGES, ChatMessage, ChatSession, hasRoomFor } from '../../domain/chat';
import { CampaignDrafts, CampaignFigures, CampaignFigureSource, ChatSessions } from '../assist.ports';
import { isLlmError, Llm, LlmMessage } from '../llm/llm.port';

export interface ChatTurnInput {
  campaignId: string;
  sessionId?: string;
  message: string;
}

/** One question, checked and ready for the model: nothing is stored until it is answered. */
export interface PreparedTurn {
  workspaceId: string;
  campaignId: string;
  /** The session's id (a new one when the request named none). */
  sessionId: string;
  message: string;
  /** What the model is sent: the grounding context, the session's recent history, the question. */
  prompt: LlmMessage[];
}

export interface ChatExchange {
  session: ChatSession;
  /** The two messages stored: the user's question and the answer. */
  messages: ChatMessage[];
}

/**
 * Campaign chat (POST /campaigns/{id}/chat): questions about one campaign, answered by the model
 * from the campaign's own figures (contacts by status and last outcome, calls, extracted values
 * and metric values, read through the campaigns and calls modules) passed as context. A session
 * holds at most CHAT_MESSAGE_LIMIT user messages. Checks in order: 400 empty_message → 404
 * campaign_not_found → 404 session_not_found → 429 message_limit_reached → the model (500
 * chat_failed). A question is stored with its answer, in one transaction, only when answered.
 */
@Injectable()
export class CampaignChat {
  constructor(
    private readonly llm: Llm,
    private readonly drafts: CampaignDrafts,
    private readonly figures: CampaignFigureSource,
    private readonly sessions: ChatSessions,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async prepare(workspaceId: string, input: ChatTurnInput): Promise<PreparedTurn> {
    const message = input.message.trim();
    if (message === '') throw new AppError('empty_message', { message: 'the message is blank' });
    const campaign = await this.drafts.require(workspaceId, input.campaignId);
    let session: ChatSession | null = null;
    if (input.sessionId !== undefined) {
      session = isUuid(input.sessionId) ? await this.sessions.find(workspaceId, campaign.id, input.sessionId) : null;
      if (!session) throw new AppError('session_not_found', { message: `no chat session ${input.sessionId} for this campaign` });
    }
    this.assertRoom(session);
    const history = session ? await this.sessions.messages(session.id, CHAT_HISTORY_MESSAGES) : [];
    const figures = await this.figures.figures(workspaceId, campaign.id);
    return {
      workspaceId,
      campaignId: campaign.id,
      sessionId: session?.id ?? randomUUID(),
      message,
      prompt: [
        { role: 'system', content: groundingContext(campaign, figures) },
        ...history.map((m) => ({ role: m.role, content: m.content })),
        { role: 'user', content: message },
      ],
    };
  }

  /** The whole answer at once (the non-streaming POST). */
  async answer(turn: PreparedTurn): Promise<ChatExchange> {
    let reply: string;
    try {
      reply = await this.llm.complete(turn.prompt, { purpose: 'campaign_chat', temperature: 0.2 });
    } catch (error) {
      throw this.failure(error);
    }
    return this.store(turn, reply);
  }

  /**
   * The answer token by token (the SSE POST); when the model has finished, the exchange is stored
   * and returned. Throws AppError chat_failed when the model fails (before or after its first
   * token) and message_limit_reached when another exchange took the session's last place meanwhile;
   * nothing is stored then, nor when the consumer stops early.
   */
  async *stream(turn: PreparedTurn, signal?: AbortSignal): AsyncGenerator<string, ChatExchange> {
    let reply = '';
    try {
      for await (const token of this.llm.stream(turn.prompt, { purpose: 'campaign_chat', temperature: 0.2, signal })) {
        reply += token;
        yield token;
      }
    } catch (error) {
      throw this.failure(error);
    }
    return this.store(turn, reply);
  }

  /** GET /campaigns/{id}/chat/sessions/{sid}: the session and its messages. */
  async session(workspaceId: string, campaignId: string, sessionId: string): Promise<{ session: ChatSession; messages: ChatMessage[] }> {
    const campaign = await this.drafts.require(workspaceId, campaignId);
    const session = isUuid(sessionId) ? await this.sessions.find(workspaceId, campaign.id, sessionId) : null;
    if (!session) throw new AppError('session_not_found', { message: `no chat session ${sessionId} for this campaign` });
    return { session, messages: await this.sessions.messages(session.id) };
  }

  get messageLimit(): number {
    return this.config.chatMessageLimit;
  }

  private async store(turn: PreparedTurn, reply: string): Promise<ChatExchange> {
    if (reply.trim() === '') throw new AppError('chat_failed', { message: 'the model answered with nothing' });
    const result = await this.sessions.appendExchange(
      { id: turn.sessionId, workspaceId: turn.workspaceId, campaignId: turn.campaignId },
      [
        { role: 'user', content: turn.message },
        { role: 'assistant', content: reply },
      ],
      this.messageLimit,
      this.clock.now(),
    );
    if (!result.stored) this.assertRoom({ userMessageCount: this.messageLimit });
    return result as ChatExchange;
  }

  private assertRoom(session: Pick<ChatSession, 'userMessageCount'> | null): void {
    if (!hasRoomFor(session, this.messageLimit)) {
      throw new AppError('message_limit_reached', { message: `this chat session has reached its ${this.messageLimit} messages; start a new session` });
    }
  }

  private failure(error: unknown): unknown {
    if (error instanceof AppError) return error;
    if (!isLlmError(error)) return error;
    return new AppError('chat_failed', { message: `the answer failed: ${error.message}`, upstreamStatus: error.upstreamStatus, detail: { reason: error.reason } });
  }
}

const tally = (counts: Record<string, number> | Array<[string, number]>): string =>
  (Array.isArray(counts) ? counts : Object.entries(counts)).map(([value, n]) => `${value} ${n}`).join(', ') || 'none';

/** The campaign's own figures as the model reads them (the chat's grounding). */
export function groundingContext(campaign: Pick<CampaignView, 'name' | 'status' | 'channel' | 'goal' | 'description'>, f: CampaignFigures): string {
  // Values most frequent first (ties by value), so the model reads the leading answers first.
  // (An array: an object would list integer-like values such as "1200" in numeric order.)
  const byFrequency = (counts: Record<string, number>): Array<[string, number]> =>
    Object.entries(counts).sort(([a, m], [b, n]) => n - m || a.localeCompare(b));
  const values = (byKey: Record<string, Record<string, number>>) =>
    Object.entries(byKey)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, counts]) => `- ${key}: ${tally(byFrequency(counts))}`);
  return [
    'You answer questions about one outbound call campaign for its operator.',
    'Answer only from the figures below; when they do not answer the question, say so. Never invent numbers.',
    '',
    `Campaign: ${campaign.name} (status ${campaign.status}, channel ${campaign.channel})`,
    `Goal: ${campaign.goal ?? 'not set'}`,
    ...(campaign.description ? [`Description: ${campaign.description}`] : []),
    `Contacts: ${f.contactCount}`,
    `Contacts by status: ${tally(f.contactsByStatus)}`,
    `Contacts by last call outcome: ${tally(f.contactsByLastOutcome)}`,
    `Calls placed: ${f.callCount} (values below from the latest ${f.sampledCalls})`,
    'Extracted values (value count):',
    ...(Object.keys(f.extractionValues).length ? values(f.extractionValues) : ['- none yet']),
    'Evaluation metrics (value count):',
    ...(Object.keys(f.evaluationValues).length ? values(f.evaluationValues) : ['- none yet']),
  ].join('\n');
}
