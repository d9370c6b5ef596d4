import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import type { DncEntry } from '../../domain/dnc-entry';
import { DncRepository } from '../../application/dnc.ports';
import { DNC_ENTRIES } from './dnc-entry.table';

const PHONE_ONLY = ['phone'] as const;

type Row = Record<string, unknown>;

const D = DNC_ENTRIES.c;

@Injectable()
export class SqlDncRepository extends DncRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async add(entry: DncEntry): Promise<{ entry: DncEntry; created: boolean }> {
    const m = this.tx.manager;
    const insert = DNC_ENTRIES.insert(entry, `ON CONFLICT (${D.workspaceId}, ${D.phone}) DO NOTHING RETURNING ${DNC_ENTRIES.select()}`);
    // A concurrent delete can remove the row between the conflict and the read: try again.
    for (let round = 0; ; round++) {
      const inserted: Row[] = await m.query(insert.sql, insert.params);
      if (inserted[0]) return { entry: DNC_ENTRIES.fromRow(inserted[0]), created: true };
      const existing: Row[] = await m.query(
        `SELECT ${DNC_ENTRIES.select()} FROM ${DNC_ENTRIES.name} WHERE ${D.workspaceId} = $1 AND ${D.phone} = $2`,
        [entry.workspaceId, entry.phone],
      );
      if (existing[0]) return { entry: DNC_ENTRIES.fromRow(existing[0]), created: false };
      if (round >= 2) throw new Error(`dnc entry for ${entry.phone} neither inserted nor found`);
    }
  }

  async list(workspaceId: string, offset: number, limit: number): Promise<{ items: DncEntry[]; total: number }> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${DNC_ENTRIES.select()} FROM ${DNC_ENTRIES.name} WHERE ${D.workspaceId} = $1
        ORDER BY ${D.createdAt} DESC, ${D.id} DESC OFFSET $2 LIMIT $3`,
      [workspaceId, offset, limit],
    );
    const [{ total }]: Array<{ total: string }> = await this.tx.manager.query(
      `SELECT count(*) AS total FROM ${DNC_ENTRIES.name} WHERE ${D.workspaceId} = $1`,
      [workspaceId],
    );
    return { items: rows.map((row) => DNC_ENTRIES.fromRow(row)), total: Number(total) };
  }

  async removeById(workspaceId: string, id: string): Promise<boolean> {
    const [, count]: [unknown[], number] = await this.tx.manager.query(
      `DELETE FROM ${DNC_ENTRIES.name} WHERE ${D.workspaceId} = $1 AND ${D.id} = $2`,
      [workspaceId, id],
    );
    return count > 0;
  }

  async removeByPhone(workspaceId: string, phone: string): Promise<boolean> {
    const [, count]: [unknown[], number] = await this.tx.manager.query(
      `DELETE FROM ${DNC_ENTRIES.name} WHERE ${D.workspaceId} = $1 AND ${D.phone} = $2`,
      [workspaceId, phone],
    );
    return count > 0;
  }

  async listed(workspaceId: string, phones: string[]): Promise<string[]> {
    if (phones.length === 0) return [];
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${DNC_ENTRIES.select(undefined, ['phone'])} FROM ${DNC_ENTRIES.name} WHERE ${D.workspaceId} = $1 AND ${D.phone} = ANY($2::text[])`,
      [workspaceId, phones],
    );
    return rows.map((row) => DNC_ENTRIES.fromRow(row, PHONE_ONLY).phone);
  }
}
