import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import type { DncEntry } from '../../domain/dnc-entry';
import { DncRepository } from '../../application/dnc.ports';
import { DNC_ENTRIES } from './dnc-entry.table';

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
    const rows: Array<{ phone: string }> = await this.tx.manager.query(
      // One probe of the (workspace_id, phone) unique index per number, whatever the statistics
      // say. As `phone = ANY($2)` a batch planned from statistics older than the list (a new
      // database, autovacuum behind a bulk add) read every entry of the workspace (decisions.md
      // 47.22). OFFSET 0 keeps the sub-select from being flattened into a join.
      `SELECT q.phone FROM unnest($2::text[]) AS q(phone)
        CROSS JOIN LATERAL (SELECT 1 FROM ${DNC_ENTRIES.name} d WHERE d.${D.workspaceId} = $1 AND d.${D.phone} = q.phone OFFSET 0) hit`,
      [workspaceId, [...new Set(phones)]],
    );
    return rows.map((row) => row.phone);
  }
}
