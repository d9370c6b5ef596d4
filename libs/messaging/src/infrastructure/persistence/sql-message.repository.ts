import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import { MessageRepository } from '../../application/messaging.ports';
import type { MessageProps } from '../../domain/message';
import type { MessageChannel } from '../../domain/opt-out';
import { MESSAGES } from './messaging.tables';

type Row = Record<string, unknown>;

const M = MESSAGES.c;
const SELECT = `SELECT ${MESSAGES.select()} FROM ${MESSAGES.name}`;
/** What changes after a message is written. */
const STATE_COLUMNS: readonly (keyof MessageProps)[] = [
  'status',
  'providerMessageId',
  'failureReason',
  'sendStartedAt',
  'sentAt',
  'deliveredAt',
  'readAt',
  'failedAt',
  'updatedAt',
];

@Injectable()
export class SqlMessageRepository extends MessageRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insertOutbound(message: MessageProps): Promise<boolean> {
    const { sql, params } = MESSAGES.insert(
      message,
      `ON CONFLICT (${M.workspaceId}, ${M.channel}, ${M.idempotencyKey}) WHERE ${M.idempotencyKey} IS NOT NULL DO NOTHING RETURNING 1 AS inserted`,
    );
    const rows: unknown[] = await this.tx.manager.query(sql, params);
    return rows.length > 0;
  }

  insertOutboundMany(messages: readonly MessageProps[]): Promise<Set<string>> {
    return this.insertNew(messages, `(${M.workspaceId}, ${M.channel}, ${M.idempotencyKey}) WHERE ${M.idempotencyKey} IS NOT NULL`);
  }

  insertInboundMany(messages: readonly MessageProps[]): Promise<Set<string>> {
    return this.insertNew(messages, `(${M.channel}, ${M.provider}, ${M.providerMessageId}) WHERE ${M.providerMessageId} IS NOT NULL`);
  }

  /** One multi-row insert that skips rows `conflict` (a unique index) already holds: answers the ids written. */
  private async insertNew(messages: readonly MessageProps[], conflict: string): Promise<Set<string>> {
    if (messages.length === 0) return new Set();
    const { sql, params } = MESSAGES.insertMany(messages, `ON CONFLICT ${conflict} DO NOTHING RETURNING ${M.id} AS id`);
    const rows: Array<{ id: string }> = await this.tx.manager.query(sql, params);
    return new Set(rows.map((row) => row.id));
  }

  async findByKey(workspaceId: string, channel: MessageChannel, idempotencyKey: string): Promise<MessageProps | null> {
    if (!isUuid(workspaceId)) return null;
    const [row]: Row[] = await this.tx.manager.query(
      `${SELECT} WHERE ${M.workspaceId} = $1 AND ${M.channel} = $2 AND ${M.idempotencyKey} = $3`,
      [workspaceId, channel, idempotencyKey],
    );
    return row ? MESSAGES.fromRow(row) : null;
  }

  async findById(id: string, options: { lock?: boolean } = {}): Promise<MessageProps | null> {
    if (!isUuid(id)) return null;
    const [row]: Row[] = await this.tx.manager.query(`${SELECT} WHERE ${M.id} = $1${this.forUpdate(options)}`, [id]);
    return row ? MESSAGES.fromRow(row) : null;
  }

  async findManyById(ids: readonly string[], options: { lock?: boolean } = {}): Promise<MessageProps[]> {
    const valid = [...new Set(ids)].filter(isUuid);
    if (valid.length === 0) return [];
    const rows: Row[] = await this.tx.manager.query(`${SELECT} WHERE ${M.id} = ANY($1::uuid[]) ORDER BY ${M.id}${this.forUpdate(options)}`, [valid]);
    return rows.map((row) => MESSAGES.fromRow(row));
  }

  async findManyWithReply(ids: readonly string[]): Promise<Array<{ message: MessageProps; replied: boolean }>> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const rows: Array<Row & { replied: boolean }> = await this.tx.manager.query(
      // A lateral look-up per message (messages_in_reply_to_idx): an EXISTS over several ids is
      // planned as one hashed scan of every reply in the table (decisions.md 47.6).
      `SELECT ${MESSAGES.select('m')}, r.hit IS NOT NULL AS replied
         FROM ${MESSAGES.name} m
         LEFT JOIN LATERAL (SELECT true AS hit FROM ${MESSAGES.name} r WHERE r.${M.inReplyToId} = m.${M.id} AND r.${M.direction} = 'INBOUND' LIMIT 1) r ON true
        WHERE m.${M.id} = ANY($1::uuid[])`,
      [valid],
    );
    return rows.map((row) => ({ message: MESSAGES.fromRow(row), replied: row.replied }));
  }

  async findByProviderMessageId(
    channel: MessageChannel,
    provider: string,
    providerMessageId: string,
    options: { lock?: boolean } = {},
  ): Promise<MessageProps | null> {
    const [row]: Row[] = await this.tx.manager.query(
      `${SELECT} WHERE ${M.channel} = $1 AND ${M.provider} = $2 AND ${M.providerMessageId} = $3${this.forUpdate(options)}`,
      [channel, provider, providerMessageId],
    );
    return row ? MESSAGES.fromRow(row) : null;
  }

  async latestSentTo(senderId: string, channel: MessageChannel, address: string, since: Date): Promise<MessageProps | null> {
    if (!isUuid(senderId)) return null;
    const [row]: Row[] = await this.tx.manager.query(
      `${SELECT} WHERE ${M.senderId} = $1 AND ${M.address} = $2 AND ${M.direction} = 'OUTBOUND' AND ${M.channel} = $3 AND ${M.createdAt} >= $4
          AND ${M.providerMessageId} IS NOT NULL AND ${M.status} <> 'FAILED'
        ORDER BY ${M.createdAt} DESC, ${M.id} DESC LIMIT 1`,
      [senderId, address, channel, since],
    );
    return row ? MESSAGES.fromRow(row) : null;
  }

  async claimSend(id: string, now: Date, staleBefore: Date): Promise<boolean> {
    // UPDATE … RETURNING answers [rows, count] through the pg driver.
    const [rows]: [unknown[], number] = await this.tx.manager.query(
      `UPDATE ${MESSAGES.name} SET ${M.sendStartedAt} = $2, ${M.updatedAt} = $2
        WHERE ${M.id} = $1 AND ${M.status} = 'QUEUED' AND (${M.sendStartedAt} IS NULL OR ${M.sendStartedAt} < $3)
        RETURNING 1 AS claimed`,
      [id, now, staleBefore],
    );
    return rows.length > 0;
  }

  async releaseSend(id: string): Promise<void> {
    await this.tx.manager.query(`UPDATE ${MESSAGES.name} SET ${M.sendStartedAt} = NULL WHERE ${M.id} = $1 AND ${M.status} = 'QUEUED'`, [id]);
  }

  async update(message: MessageProps): Promise<void> {
    const { sql, params } = MESSAGES.update(message, ['id'], STATE_COLUMNS);
    await this.tx.manager.query(sql, params);
  }

  async updateMany(messages: readonly MessageProps[]): Promise<void> {
    if (messages.length === 0) return;
    if (messages.length === 1) return this.update(messages[0]);
    const column = (key: keyof MessageProps) => messages.map((m) => m[key]);
    await this.tx.manager.query(
      `UPDATE ${MESSAGES.name} m
          SET ${M.status} = t.status, ${M.providerMessageId} = t.provider_message_id, ${M.failureReason} = t.failure_reason,
              ${M.sendStartedAt} = t.send_started_at, ${M.sentAt} = t.sent_at, ${M.deliveredAt} = t.delivered_at,
              ${M.readAt} = t.read_at, ${M.failedAt} = t.failed_at, ${M.updatedAt} = t.updated_at
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::timestamptz[], $7::timestamptz[],
                     $8::timestamptz[], $9::timestamptz[], $10::timestamptz[])
              AS t(id, status, provider_message_id, failure_reason, send_started_at, sent_at, delivered_at, read_at, failed_at, updated_at)
        WHERE m.${M.id} = t.id`,
      [column('id'), ...STATE_COLUMNS.map(column)],
    );
  }

  async hasReply(id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const rows: Array<{ replied: boolean }> = await this.tx.manager.query(
      `SELECT EXISTS (SELECT 1 FROM ${MESSAGES.name} WHERE ${M.inReplyToId} = $1 AND ${M.direction} = 'INBOUND') AS replied`,
      [id],
    );
    return rows[0].replied;
  }

  async hasInboundSince(workspaceId: string, channel: MessageChannel, address: string, since: Date): Promise<boolean> {
    if (!isUuid(workspaceId)) return false;
    const rows: Array<{ replied: boolean }> = await this.tx.manager.query(
      `SELECT EXISTS (SELECT 1 FROM ${MESSAGES.name} WHERE ${M.workspaceId} = $1 AND ${M.channel} = $2 AND ${M.createdAt} >= $4
                         AND ${M.address} = $3 AND ${M.direction} = 'INBOUND') AS replied`,
      [workspaceId, channel, address, since],
    );
    return rows[0].replied;
  }

  async listRecent(workspaceId: string, channel: MessageChannel, limit: number): Promise<MessageProps[]> {
    if (!isUuid(workspaceId)) return [];
    const rows: Row[] = await this.tx.manager.query(
      `${SELECT} WHERE ${M.workspaceId} = $1 AND ${M.channel} = $2 ORDER BY ${M.createdAt} DESC, ${M.id} DESC LIMIT $3`,
      [workspaceId, channel, limit],
    );
    return rows.map((row) => MESSAGES.fromRow(row));
  }

  async findOutbound(workspaceId: string, ids: readonly string[]): Promise<MessageProps[]> {
    if (!isUuid(workspaceId) || ids.length === 0) return [];
    const rows: Row[] = await this.tx.manager.query(`${SELECT} WHERE ${M.workspaceId} = $1 AND ${M.id} = ANY($2::uuid[]) AND ${M.direction} = 'OUTBOUND'`, [workspaceId, ids]);
    return rows.map((row) => MESSAGES.fromRow(row));
  }

  async repliesTo(ids: readonly string[]): Promise<MessageProps[]> {
    if (ids.length === 0) return [];
    const rows: Row[] = await this.tx.manager.query(
      // One index probe per message (messages_in_reply_to_idx), whatever the statistics say. As
      // `in_reply_to_id = ANY($1)` a batch of 200 ids was planned from statistics older than the
      // table (a new database, autovacuum behind) as a scan of every message: 53 ms instead of 0.6
      // (decisions.md 47.16). OFFSET 0 keeps the sub-select from being flattened into a join.
      `SELECT ${MESSAGES.select('r')}
         FROM unnest($1::uuid[]) AS q(id)
         CROSS JOIN LATERAL (SELECT * FROM ${MESSAGES.name} m WHERE m.${M.inReplyToId} = q.id AND m.${M.direction} = 'INBOUND' OFFSET 0) r`,
      [[...new Set(ids)]],
    );
    return rows.map((row) => MESSAGES.fromRow(row));
  }

  private forUpdate(options: { lock?: boolean }): string {
    return options.lock && this.tx.inTransaction ? ' FOR UPDATE' : '';
  }
}
