import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { isLlmError, Llm, LlmMessage } from '@outreach/assist';
import { AppError, Clock, isUuid, UnitOfWork } from '@outreach/core';
import { assertRotatable, ChatbotProps, ChatbotStatus, newEmbedKey } from '../domain/chatbot';
import { RetrievedPassage } from '../domain/knowledge-base';
import { ChatbotRepository } from './knowledge.ports';
import { KnowledgeBases } from './knowledge-bases';

export interface ChatbotView {
  id: string;
  name: string;
  instructions: string | null;
  status: ChatbotStatus;
  knowledgeBaseIds: string[];
  embedKey: string;
  embedKeyVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface ChatbotAnswer {
  sessionId: string;
  answer: string;
  /** The passages the answer was grounded in, best first. */
  sources: RetrievedPassage[];
}

export interface ChatbotInput {
  name?: string;
  instructions?: string | null;
  status?: ChatbotStatus;
  knowledgeBaseIds?: string[];
}

/** Messages of a session sent back to the model with each question. */
const HISTORY = 10;

function toView(bot: ChatbotProps): ChatbotView {
  const { workspaceId: _ws, ...view } = bot;
  return view;
}

/**
 * Chatbots answer from their knowledge bases (decisions.md 39.7): each question retrieves the best
 * passages of their documents, and the model answers from those passages only. The embed key is
 * rotated by compare-and-swap on its version: of two rotations from the same version exactly one
 * wins, the other is 409 rotation_conflict.
 */
@Injectable()
export class Chatbots {
  constructor(
    private readonly bots: ChatbotRepository,
    private readonly bases: KnowledgeBases,
    private readonly llm: Llm,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async create(workspaceId: string, input: ChatbotInput & { name: string }): Promise<ChatbotView> {
    const kbs = await this.bases.requireAll(workspaceId, input.knowledgeBaseIds ?? []);
    const now = this.clock.now();
    const bot: ChatbotProps = {
      id: randomUUID(),
      workspaceId,
      name: input.name.trim(),
      instructions: input.instructions ?? null,
      status: input.status ?? 'ACTIVE',
      knowledgeBaseIds: kbs.map((kb) => kb.id),
      embedKey: newEmbedKey(),
      embedKeyVersion: 1,
      createdAt: now,
      updatedAt: now,
    };
    await this.bots.insert(bot);
    return toView(bot);
  }

  async update(workspaceId: string, id: string, input: ChatbotInput): Promise<ChatbotView> {
    if (Object.values(input).every((v) => v === undefined)) throw new AppError('no_fields_to_update', { message: 'send at least one chatbot field' });
    return this.uow.run(async () => {
      const bot = await this.require(workspaceId, id, true);
      const kbs = input.knowledgeBaseIds ? await this.bases.requireAll(workspaceId, input.knowledgeBaseIds) : null;
      const next: ChatbotProps = {
        ...bot,
        name: input.name?.trim() ?? bot.name,
        instructions: input.instructions !== undefined ? input.instructions : bot.instructions,
        status: input.status ?? bot.status,
        knowledgeBaseIds: kbs ? kbs.map((kb) => kb.id) : bot.knowledgeBaseIds,
        updatedAt: this.clock.now(),
      };
      await this.bots.update(next);
      return toView(next);
    });
  }

  async list(workspaceId: string): Promise<ChatbotView[]> {
    return (await this.bots.list(workspaceId)).map(toView);
  }

  async get(workspaceId: string, id: string): Promise<ChatbotView> {
    return toView(await this.require(workspaceId, id));
  }

  async delete(workspaceId: string, id: string): Promise<void> {
    const bot = await this.require(workspaceId, id);
    await this.bots.delete(bot.id);
  }

  /** A new embed key replacing the one at `fromVersion` (the current one when not given); the old key stops working at once. */
  async rotateEmbedKey(workspaceId: string, id: string, fromVersion?: number): Promise<ChatbotView> {
    const bot = await this.require(workspaceId, id);
    const expected = fromVersion ?? bot.embedKeyVersion;
    assertRotatable(bot, expected);
    const key = newEmbedKey();
    const now = this.clock.now();
    if (!(await this.bots.rotateKey(bot.id, expected, key, now))) {
      assertRotatable(await this.require(workspaceId, id), expected);
      throw new AppError('rotation_conflict', { message: 'another rotation won the race; read the chatbot again' });
    }
    return toView({ ...bot, embedKey: key, embedKeyVersion: expected + 1, updatedAt: now });
  }

  /** POST /chatbots/{id}/chat (API key). */
  async ask(workspaceId: string, id: string, input: { message: string; sessionId?: string }): Promise<ChatbotAnswer> {
    const message = this.message(input.message);
    return this.answer(await this.require(workspaceId, id), message, input.sessionId);
  }

  /** POST /embed/chat (the embed key alone): an unknown or rotated-away key is 404 chatbot_not_found. */
  async askByEmbedKey(embedKey: string, input: { message: string; sessionId?: string }): Promise<ChatbotAnswer> {
    const message = this.message(input.message);
    const bot = embedKey ? await this.bots.findByEmbedKey(embedKey) : null;
    if (!bot) throw new AppError('chatbot_not_found', { message: 'no chatbot has this embed key (it may have been rotated)' });
    return this.answer(bot, message, input.sessionId);
  }

  private message(text: string): string {
    const message = text.trim();
    if (message === '') throw new AppError('empty_message', { message: 'the message is blank' });
    return message;
  }

  private async answer(bot: ChatbotProps, message: string, sessionId?: string): Promise<ChatbotAnswer> {
    if (bot.status !== 'ACTIVE') throw new AppError('invalid_request', { message: `chatbot ${bot.id} is ${bot.status}: it does not answer` });
    let history: LlmMessage[] = [];
    if (sessionId !== undefined) {
      const stored = isUuid(sessionId) ? await this.bots.sessionMessages(bot.id, sessionId, HISTORY) : null;
      if (!stored) throw new AppError('session_not_found', { message: `no session ${sessionId} for this chatbot` });
      history = stored.map((m) => ({ role: m.role, content: m.content }));
    }
    const sources = bot.knowledgeBaseIds.length ? await this.bases.query(bot.workspaceId, bot.knowledgeBaseIds, message) : [];
    const prompt: LlmMessage[] = [{ role: 'system', content: groundingPrompt(bot, sources) }, ...history, { role: 'user', content: message }];
    let answer: string;
    try {
      answer = (await this.llm.complete(prompt, { purpose: 'knowledge_answer', maxTokens: 600, temperature: 0.2 })).trim();
    } catch (error) {
      if (isLlmError(error)) throw new AppError('chat_failed', { message: `the language model gave no answer (${error.reason})` });
      throw error;
    }
    if (!answer) throw new AppError('chat_failed', { message: 'the language model gave an empty answer' });
    const session = sessionId ?? randomUUID();
    await this.bots.appendMessages(bot.id, session, [{ role: 'user', content: message }, { role: 'assistant', content: answer }], this.clock.now());
    return { sessionId: session, answer, sources };
  }

  private async require(workspaceId: string, id: string, lock = false): Promise<ChatbotProps> {
    const bot = isUuid(id) ? await this.bots.find(workspaceId, id, { lock }) : null;
    if (!bot) throw new AppError('chatbot_not_found', { message: `no chatbot ${id}` });
    return bot;
  }
}

/** The system message: the chatbot's instructions and the numbered passages it may answer from. */
export function groundingPrompt(bot: Pick<ChatbotProps, 'name' | 'instructions'>, sources: readonly RetrievedPassage[]): string {
  const lines = [
    `You are ${bot.name}. Answer only from the passages below; if they do not hold the answer, say you do not know.`,
    ...(bot.instructions ? [`Instructions: ${bot.instructions}`] : []),
    'Passages:',
    ...(sources.length ? sources.map((s, i) => `[${i + 1}] (${s.documentName}) ${s.content.replace(/\s+/g, ' ')}`) : ['(none found)']),
  ];
  return lines.join('\n');
}
