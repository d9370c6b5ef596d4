import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import { ChatbotRepository, DictionaryRepository, DocumentRepository, KnowledgeBaseRepository, StoredChatMessage } from '../../application/knowledge.ports';
import type { ChatbotProps } from '../../domain/chatbot';
import type { DictionaryProps } from '../../domain/dictionary';
import type { DocumentProps } from '../../domain/document';
import type { KnowledgeBaseProps, RetrievedPassage } from '../../domain/knowledge-base';
import { CHATBOT_KBS, CHATBOT_MESSAGES, CHATBOTS, CHUNKS, DICTIONARIES, DOCUMENTS, KB_DOCUMENTS, KNOWLEDGE_BASES } from './knowledge.tables';

type Row = Record<string, unknown>;
const D = DOCUMENTS.c;
const K = KNOWLEDGE_BASES.c;
const B = CHATBOTS.c;
const lockClause = (lock?: boolean) => (lock ? ' FOR UPDATE' : '');

/** Chunks inserted per statement (5 parameters each stay far below Postgres' 65,535). */
const CHUNK_BATCH = 500;

@Injectable()
export class SqlDocumentRepository extends DocumentRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(doc: DocumentProps): Promise<void> {
    const s = DOCUMENTS.insert(doc);
    await this.tx.manager.query(s.sql, s.params);
  }

  async update(doc: DocumentProps): Promise<void> {
    const s = DOCUMENTS.update(doc, ['id']);
    await this.tx.manager.query(s.sql, s.params);
  }

  async find(workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<DocumentProps | null> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${DOCUMENTS.select()} FROM ${DOCUMENTS.name} WHERE ${D.id} = $1 AND ${D.workspaceId} = $2${lockClause(options.lock)}`,
      [id, workspaceId],
    );
    return rows[0] ? DOCUMENTS.fromRow(rows[0]) : null;
  }

  async findById(id: string, options: { lock?: boolean } = {}): Promise<DocumentProps | null> {
    const rows: Row[] = await this.tx.manager.query(`SELECT ${DOCUMENTS.select()} FROM ${DOCUMENTS.name} WHERE ${D.id} = $1${lockClause(options.lock)}`, [id]);
    return rows[0] ? DOCUMENTS.fromRow(rows[0]) : null;
  }

  async findMany(workspaceId: string, ids: readonly string[]): Promise<DocumentProps[]> {
    if (ids.length === 0) return [];
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${DOCUMENTS.select()} FROM ${DOCUMENTS.name} WHERE ${D.workspaceId} = $1 AND ${D.id} = ANY($2::uuid[])`,
      [workspaceId, [...ids]],
    );
    return rows.map((r) => DOCUMENTS.fromRow(r));
  }

  async list(workspaceId: string): Promise<DocumentProps[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${DOCUMENTS.select()} FROM ${DOCUMENTS.name} WHERE ${D.workspaceId} = $1 ORDER BY ${D.createdAt}, ${D.id}`,
      [workspaceId],
    );
    return rows.map((r) => DOCUMENTS.fromRow(r));
  }

  async delete(workspaceId: string, id: string): Promise<void> {
    await this.tx.manager.query(`DELETE FROM ${DOCUMENTS.name} WHERE ${D.id} = $1 AND ${D.workspaceId} = $2`, [id, workspaceId]);
  }

  async replaceChunks(doc: DocumentProps, chunks: readonly string[]): Promise<void> {
    await this.tx.manager.query(`DELETE FROM ${CHUNKS.name} WHERE ${CHUNKS.c.documentId} = $1`, [doc.id]);
    for (let i = 0; i < chunks.length; i += CHUNK_BATCH) {
      const rows = chunks.slice(i, i + CHUNK_BATCH).map((content, j) => ({ documentId: doc.id, seq: i + j + 1, workspaceId: doc.workspaceId, content }));
      const s = CHUNKS.insertMany(rows);
      await this.tx.manager.query(s.sql, s.params);
    }
  }

  async leadingText(workspaceId: string, ids: readonly string[], maxChars: number): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    // Chunks overlap (decisions.md 39.5): each chunk after the first adds only what follows the overlap, so
    // the text is the chunks in order until the running length passes maxChars.
    const rows: Array<{ document_id: string; content: string }> = await this.tx.manager.query(
      `SELECT document_id, content FROM (
         SELECT ${CHUNKS.c.documentId} AS document_id, ${CHUNKS.c.content} AS content, ${CHUNKS.c.seq} AS seq,
                sum(length(${CHUNKS.c.content})) OVER (PARTITION BY ${CHUNKS.c.documentId} ORDER BY ${CHUNKS.c.seq}) - length(${CHUNKS.c.content}) AS before
           FROM ${CHUNKS.name} WHERE ${CHUNKS.c.workspaceId} = $1 AND ${CHUNKS.c.documentId} = ANY($2::uuid[])
       ) c WHERE before < $3 ORDER BY document_id, seq`,
      [workspaceId, [...ids], maxChars],
    );
    const texts = new Map<string, string>();
    for (const row of rows) texts.set(row.document_id, texts.has(row.document_id) ? `${texts.get(row.document_id)}\n${row.content}` : row.content);
    for (const [id, text] of texts) texts.set(id, text.slice(0, maxChars));
    return texts;
  }

  async storeEmbeddings(documentId: string, vectors: readonly number[][]): Promise<void> {
    await this.tx.manager.query(
      `UPDATE ${CHUNKS.name} c SET embedding = v.embedding
         FROM (SELECT ord::int AS seq, (SELECT array_agg(x::real ORDER BY i) FROM jsonb_array_elements_text(e) WITH ORDINALITY AS t(x, i)) AS embedding
                 FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS a(e, ord)) v
        WHERE c.${CHUNKS.c.documentId} = $1 AND c.${CHUNKS.c.seq} = v.seq`,
      [documentId, JSON.stringify(vectors)],
    );
  }

  async nearest(workspaceId: string, documentIds: readonly string[], vector: readonly number[], limit: number): Promise<RetrievedPassage[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT c.${CHUNKS.c.documentId} AS document_id, d.${D.name} AS document_name, c.${CHUNKS.c.seq} AS seq, c.${CHUNKS.c.content} AS content,
              (SELECT sum(a * b) FROM unnest(c.embedding, $3::real[]) AS t(a, b)) AS score
         FROM ${CHUNKS.name} c JOIN ${DOCUMENTS.name} d ON d.${D.id} = c.${CHUNKS.c.documentId}
        WHERE c.${CHUNKS.c.workspaceId} = $1 AND c.${CHUNKS.c.documentId} = ANY($2::uuid[])
          AND c.embedding IS NOT NULL AND cardinality(c.embedding) = cardinality($3::real[])
        ORDER BY score DESC, c.${CHUNKS.c.documentId}, c.${CHUNKS.c.seq}
        LIMIT $4`,
      [workspaceId, [...documentIds], [...vector], limit],
    );
    return rows.map((r) => ({ documentId: String(r.document_id), documentName: String(r.document_name), seq: Number(r.seq), content: String(r.content), score: Number(r.score) }));
  }

  async search(workspaceId: string, documentIds: readonly string[], query: string, limit: number): Promise<RetrievedPassage[]> {
    // Any of the question's words (stemmed as the chunks were), ranked by cover density: a question is
    // prose, and websearch_to_tsquery would ask for every word at once (decisions.md 39.5).
    const rows: Row[] = await this.tx.manager.query(
      `WITH q AS (
         SELECT to_tsquery('simple', string_agg(quote_literal(lexeme), ' | ')) AS q FROM unnest(to_tsvector('english', $3))
       )
       SELECT c.${CHUNKS.c.documentId} AS document_id, d.${D.name} AS document_name, c.${CHUNKS.c.seq} AS seq, c.${CHUNKS.c.content} AS content,
              ts_rank_cd(c.search, q.q) AS score
         FROM ${CHUNKS.name} c JOIN ${DOCUMENTS.name} d ON d.${D.id} = c.${CHUNKS.c.documentId}, q
        WHERE q.q IS NOT NULL AND c.${CHUNKS.c.workspaceId} = $1 AND c.${CHUNKS.c.documentId} = ANY($2::uuid[]) AND c.search @@ q.q
        ORDER BY score DESC, c.${CHUNKS.c.documentId}, c.${CHUNKS.c.seq}
        LIMIT $4`,
      [workspaceId, [...documentIds], query, limit],
    );
    return rows.map((r) => ({
      documentId: String(r.document_id),
      documentName: String(r.document_name),
      seq: Number(r.seq),
      content: String(r.content),
      score: Number(r.score),
    }));
  }
}

@Injectable()
export class SqlKnowledgeBaseRepository extends KnowledgeBaseRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(kb: KnowledgeBaseProps): Promise<void> {
    const s = KNOWLEDGE_BASES.insert(kb);
    await this.tx.manager.query(s.sql, s.params);
  }

  async update(kb: KnowledgeBaseProps): Promise<void> {
    const s = KNOWLEDGE_BASES.update(kb, ['id'], ['name', 'description', 'updatedAt']);
    await this.tx.manager.query(s.sql, s.params);
  }

  async find(workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<KnowledgeBaseProps | null> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${KNOWLEDGE_BASES.select()} FROM ${KNOWLEDGE_BASES.name} WHERE ${K.id} = $1 AND ${K.workspaceId} = $2${lockClause(options.lock)}`,
      [id, workspaceId],
    );
    return rows[0] ? KNOWLEDGE_BASES.fromRow(rows[0]) : null;
  }

  async list(workspaceId: string): Promise<KnowledgeBaseProps[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${KNOWLEDGE_BASES.select()} FROM ${KNOWLEDGE_BASES.name} WHERE ${K.workspaceId} = $1 ORDER BY ${K.createdAt}, ${K.id}`,
      [workspaceId],
    );
    return rows.map((r) => KNOWLEDGE_BASES.fromRow(r));
  }

  async delete(id: string): Promise<void> {
    await this.tx.manager.query(`DELETE FROM ${KNOWLEDGE_BASES.name} WHERE ${K.id} = $1`, [id]);
  }

  async documentIds(knowledgeBaseIds: readonly string[]): Promise<string[]> {
    if (knowledgeBaseIds.length === 0) return [];
    const rows: Array<{ id: string }> = await this.tx.manager.query(
      `SELECT ${KB_DOCUMENTS.c.documentId} AS id, min(${KB_DOCUMENTS.c.addedAt}) AS first FROM ${KB_DOCUMENTS.name}
        WHERE ${KB_DOCUMENTS.c.knowledgeBaseId} = ANY($1::uuid[]) GROUP BY 1 ORDER BY first, id`,
      [[...knowledgeBaseIds]],
    );
    return rows.map((r) => r.id);
  }

  async addDocument(knowledgeBaseId: string, documentId: string, at: Date): Promise<boolean> {
    const s = KB_DOCUMENTS.insert({ knowledgeBaseId, documentId, addedAt: at }, 'ON CONFLICT DO NOTHING RETURNING 1');
    const rows: unknown[] = await this.tx.manager.query(s.sql, s.params);
    return rows.length > 0;
  }

  async removeDocument(knowledgeBaseId: string, documentId: string): Promise<boolean> {
    // TypeORM answers a DELETE or an UPDATE with [rows, affectedCount], not with the rows alone.
    const [, count]: [unknown[], number] = await this.tx.manager.query(
      `DELETE FROM ${KB_DOCUMENTS.name} WHERE ${KB_DOCUMENTS.c.knowledgeBaseId} = $1 AND ${KB_DOCUMENTS.c.documentId} = $2`,
      [knowledgeBaseId, documentId],
    );
    return count > 0;
  }

  async activeChatbotIds(knowledgeBaseId: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.tx.manager.query(
      `SELECT b.${B.id} AS id FROM ${CHATBOT_KBS.name} l JOIN ${CHATBOTS.name} b ON b.${B.id} = l.${CHATBOT_KBS.c.chatbotId}
        WHERE l.${CHATBOT_KBS.c.knowledgeBaseId} = $1 AND b.${B.status} = 'ACTIVE' ORDER BY b.${B.createdAt}`,
      [knowledgeBaseId],
    );
    return rows.map((r) => r.id);
  }
}

@Injectable()
export class SqlChatbotRepository extends ChatbotRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  insert(bot: ChatbotProps): Promise<void> {
    return this.tx.run(async () => {
      const { knowledgeBaseIds, ...row } = bot;
      const s = CHATBOTS.insert(row);
      await this.tx.manager.query(s.sql, s.params);
      await this.link(bot.id, knowledgeBaseIds);
    });
  }

  update(bot: ChatbotProps): Promise<void> {
    return this.tx.run(async () => {
      const { knowledgeBaseIds, ...row } = bot;
      const s = CHATBOTS.update(row, ['id'], ['name', 'instructions', 'status', 'updatedAt']);
      await this.tx.manager.query(s.sql, s.params);
      await this.tx.manager.query(`DELETE FROM ${CHATBOT_KBS.name} WHERE ${CHATBOT_KBS.c.chatbotId} = $1`, [bot.id]);
      await this.link(bot.id, knowledgeBaseIds);
    });
  }

  async find(workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<ChatbotProps | null> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${CHATBOTS.select()} FROM ${CHATBOTS.name} WHERE ${B.id} = $1 AND ${B.workspaceId} = $2${lockClause(options.lock)}`,
      [id, workspaceId],
    );
    return rows[0] ? (await this.withBases([CHATBOTS.fromRow(rows[0])]))[0] : null;
  }

  async findByEmbedKey(embedKey: string): Promise<ChatbotProps | null> {
    const rows: Row[] = await this.tx.manager.query(`SELECT ${CHATBOTS.select()} FROM ${CHATBOTS.name} WHERE ${B.embedKey} = $1`, [embedKey]);
    return rows[0] ? (await this.withBases([CHATBOTS.fromRow(rows[0])]))[0] : null;
  }

  async list(workspaceId: string): Promise<ChatbotProps[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${CHATBOTS.select()} FROM ${CHATBOTS.name} WHERE ${B.workspaceId} = $1 ORDER BY ${B.createdAt}, ${B.id}`,
      [workspaceId],
    );
    return this.withBases(rows.map((r) => CHATBOTS.fromRow(r)));
  }

  async delete(id: string): Promise<void> {
    await this.tx.manager.query(`DELETE FROM ${CHATBOTS.name} WHERE ${B.id} = $1`, [id]);
  }

  async rotateKey(id: string, fromVersion: number, key: string, at: Date): Promise<boolean> {
    // One statement: of two rotations from the same version, the second waits for the first's row
    // lock, then sees the new version and updates nothing.
    const [, count]: [unknown[], number] = await this.tx.manager.query(
      `UPDATE ${CHATBOTS.name} SET ${B.embedKey} = $3, ${B.embedKeyVersion} = ${B.embedKeyVersion} + 1, ${B.updatedAt} = $4
        WHERE ${B.id} = $1 AND ${B.embedKeyVersion} = $2`,
      [id, fromVersion, key, at],
    );
    return count > 0;
  }

  async sessionMessages(chatbotId: string, sessionId: string, limit: number): Promise<StoredChatMessage[] | null> {
    const M = CHATBOT_MESSAGES.c;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT * FROM (SELECT ${CHATBOT_MESSAGES.select()} FROM ${CHATBOT_MESSAGES.name} WHERE ${M.chatbotId} = $1 AND ${M.sessionId} = $2
         ORDER BY ${M.seq} DESC LIMIT $3) latest ORDER BY ${M.seq}`,
      [chatbotId, sessionId, limit],
    );
    if (rows.length === 0) return null;
    return rows.map((r) => {
      const m = CHATBOT_MESSAGES.fromRow(r);
      return { role: m.role, content: m.content, createdAt: m.createdAt };
    });
  }

  appendMessages(chatbotId: string, sessionId: string, messages: ReadonlyArray<{ role: 'user' | 'assistant'; content: string }>, at: Date): Promise<void> {
    const M = CHATBOT_MESSAGES.c;
    return this.tx.run(async () => {
      // Two exchanges of one session take their seq numbers one after the other.
      await this.tx.manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`chatbot-session:${sessionId}`]);
      const [{ last }]: Array<{ last: number }> = await this.tx.manager.query(
        `SELECT coalesce(max(${M.seq}), 0)::int AS last FROM ${CHATBOT_MESSAGES.name} WHERE ${M.sessionId} = $1`,
        [sessionId],
      );
      const s = CHATBOT_MESSAGES.insertMany(messages.map((m, i) => ({ id: randomUUID(), chatbotId, sessionId, seq: last + i + 1, role: m.role, content: m.content, createdAt: at })));
      await this.tx.manager.query(s.sql, s.params);
    });
  }

  private async link(chatbotId: string, knowledgeBaseIds: readonly string[]): Promise<void> {
    if (knowledgeBaseIds.length === 0) return;
    const s = CHATBOT_KBS.insertMany(knowledgeBaseIds.map((knowledgeBaseId) => ({ chatbotId, knowledgeBaseId })), 'ON CONFLICT DO NOTHING');
    await this.tx.manager.query(s.sql, s.params);
  }

  private async withBases(rows: Array<Omit<ChatbotProps, 'knowledgeBaseIds'>>): Promise<ChatbotProps[]> {
    if (rows.length === 0) return [];
    const links: Array<{ chatbot_id: string; knowledge_base_id: string }> = await this.tx.manager.query(
      `SELECT ${CHATBOT_KBS.c.chatbotId} AS chatbot_id, ${CHATBOT_KBS.c.knowledgeBaseId} AS knowledge_base_id FROM ${CHATBOT_KBS.name}
        WHERE ${CHATBOT_KBS.c.chatbotId} = ANY($1::uuid[]) ORDER BY 2`,
      [rows.map((r) => r.id)],
    );
    return rows.map((r) => ({ ...r, knowledgeBaseIds: links.filter((l) => l.chatbot_id === r.id).map((l) => l.knowledge_base_id) }));
  }
}

@Injectable()
export class SqlDictionaryRepository extends DictionaryRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(d: DictionaryProps): Promise<void> {
    const s = DICTIONARIES.insert(d);
    await this.tx.manager.query(s.sql, s.params);
  }

  async update(d: DictionaryProps): Promise<void> {
    const s = DICTIONARIES.update(d, ['id'], ['name', 'entries', 'updatedAt']);
    await this.tx.manager.query(s.sql, s.params);
  }

  async find(workspaceId: string, id: string): Promise<DictionaryProps | null> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${DICTIONARIES.select()} FROM ${DICTIONARIES.name} WHERE ${DICTIONARIES.c.id} = $1 AND ${DICTIONARIES.c.workspaceId} = $2`,
      [id, workspaceId],
    );
    return rows[0] ? DICTIONARIES.fromRow(rows[0]) : null;
  }

  async findMany(workspaceId: string, ids: readonly string[]): Promise<DictionaryProps[]> {
    if (ids.length === 0) return [];
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${DICTIONARIES.select()} FROM ${DICTIONARIES.name} WHERE ${DICTIONARIES.c.workspaceId} = $1 AND ${DICTIONARIES.c.id} = ANY($2::uuid[])`,
      [workspaceId, [...ids]],
    );
    return rows.map((r) => DICTIONARIES.fromRow(r));
  }

  async list(workspaceId: string): Promise<DictionaryProps[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${DICTIONARIES.select()} FROM ${DICTIONARIES.name} WHERE ${DICTIONARIES.c.workspaceId} = $1 ORDER BY ${DICTIONARIES.c.createdAt}, ${DICTIONARIES.c.id}`,
      [workspaceId],
    );
    return rows.map((r) => DICTIONARIES.fromRow(r));
  }

  async delete(id: string): Promise<void> {
    await this.tx.manager.query(`DELETE FROM ${DICTIONARIES.name} WHERE ${DICTIONARIES.c.id} = $1`, [id]);
  }

  async forAgent(workspaceId: string, agentId: string): Promise<DictionaryProps[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${DICTIONARIES.select('d')} FROM agent_dictionaries l JOIN ${DICTIONARIES.name} d ON d.${DICTIONARIES.c.id} = l.dictionary_id
        WHERE l.workspace_id = $1 AND l.agent_id = $2 ORDER BY l.position`,
      [workspaceId, agentId],
    );
    return rows.map((r) => DICTIONARIES.fromRow(r));
  }

  setForAgent(workspaceId: string, agentId: string, dictionaryIds: readonly string[]): Promise<void> {
    return this.tx.run(async () => {
      await this.tx.manager.query(`DELETE FROM agent_dictionaries WHERE workspace_id = $1 AND agent_id = $2`, [workspaceId, agentId]);
      for (const [position, id] of dictionaryIds.entries()) {
        await this.tx.manager.query(`INSERT INTO agent_dictionaries (agent_id, dictionary_id, workspace_id, position) VALUES ($1, $2, $3, $4)`, [agentId, id, workspaceId, position]);
      }
    });
  }
}
