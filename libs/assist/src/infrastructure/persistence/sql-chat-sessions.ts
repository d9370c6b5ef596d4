import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import { ChatSessions } from '../../application/assist.ports';
import type { ChatMessage, ChatRole, ChatSession } from '../../domain/chat';
import { CHAT_MESSAGES, CHAT_SESSIONS } from './chat.tables';

type Row = Record<string, unknown>;
const S = CHAT_SESSIONS.c;
const M = CHAT_MESSAGES.c;

@Injectable()
export class SqlChatSessions extends ChatSessions {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async find(workspaceId: string, campaignId: string, sessionId: string): Promise<ChatSession | null> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${CHAT_SESSIONS.select()} FROM ${CHAT_SESSIONS.name} WHERE ${S.id} = $1 AND ${S.workspaceId} = $2 AND ${S.campaignId} = $3`,
      [sessionId, workspaceId, campaignId],
    );
    return rows[0] ? CHAT_SESSIONS.fromRow(rows[0]) : null;
  }

  async messages(sessionId: string, limit?: number): Promise<ChatMessage[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT * FROM (SELECT ${CHAT_MESSAGES.select()} FROM ${CHAT_MESSAGES.name} WHERE ${M.sessionId} = $1
         ORDER BY ${M.seq} DESC LIMIT $2) latest ORDER BY ${M.seq}`,
      [sessionId, limit ?? null],
    );
    return rows.map((row) => CHAT_MESSAGES.fromRow(row));
  }

  appendExchange(
    session: { id: string; workspaceId: string; campaignId: string },
    exchange: Array<{ role: ChatRole; content: string }>,
    limit: number,
    now: Date,
  ): ReturnType<ChatSessions['appendExchange']> {
    return this.tx.run(async () => {
      const m = this.tx.manager;
      // Create the session if it is new, then lock its row: concurrent exchanges of one session queue here.
      const insert = CHAT_SESSIONS.insert(
        { ...session, userMessageCount: 0, createdAt: now, updatedAt: now },
        `ON CONFLICT (${S.id}) DO NOTHING`,
      );
      await m.query(insert.sql, insert.params);
      const rows: Row[] = await m.query(`SELECT ${CHAT_SESSIONS.select()} FROM ${CHAT_SESSIONS.name} WHERE ${S.id} = $1 FOR UPDATE`, [session.id]);
      const current = CHAT_SESSIONS.fromRow(rows[0]);
      if (current.workspaceId !== session.workspaceId || current.campaignId !== session.campaignId) {
        throw new Error(`chat session ${session.id} belongs to another campaign`);
      }
      const questions = exchange.filter((e) => e.role === 'user').length;
      if (current.userMessageCount + questions > limit) return { stored: false as const };

      const [{ last }]: Array<{ last: number }> = await m.query(
        `SELECT coalesce(max(${M.seq}), 0)::int AS last FROM ${CHAT_MESSAGES.name} WHERE ${M.sessionId} = $1`,
        [session.id],
      );
      const messages: ChatMessage[] = exchange.map((e, i) => ({
        id: randomUUID(),
        sessionId: session.id,
        seq: last + i + 1,
        role: e.role,
        content: e.content,
        createdAt: now,
      }));
      const many = CHAT_MESSAGES.insertMany(messages);
      await m.query(many.sql, many.params);
      const updated: ChatSession = { ...current, userMessageCount: current.userMessageCount + questions, updatedAt: now };
      const update = CHAT_SESSIONS.update(updated, ['id'], ['userMessageCount', 'updatedAt']);
      await m.query(update.sql, update.params);
      return { stored: true as const, session: updated, messages };
    });
  }
}
