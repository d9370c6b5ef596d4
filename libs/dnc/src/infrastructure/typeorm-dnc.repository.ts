import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import type { DncEntry } from '../domain/dnc-entry';
import { DncRepository } from '../application/dnc.ports';

type DncRow = { id: string; workspace_id: string; phone: string; reason: string | null; created_at: Date };

const toEntry = (r: DncRow): DncEntry => ({
  id: r.id,
  workspaceId: r.workspace_id,
  phone: r.phone,
  reason: r.reason,
  createdAt: r.created_at,
});

@Injectable()
export class TypeormDncRepository extends DncRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async add(entry: DncEntry): Promise<{ entry: DncEntry; created: boolean }> {
    const m = this.tx.manager;
    // A concurrent delete can remove the row between the conflict and the read: try again.
    for (let round = 0; ; round++) {
      const inserted: DncRow[] = await m.query(
        `INSERT INTO dnc_entries (id, workspace_id, phone, reason, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (workspace_id, phone) DO NOTHING RETURNING *`,
        [entry.id, entry.workspaceId, entry.phone, entry.reason, entry.createdAt],
      );
      if (inserted[0]) return { entry: toEntry(inserted[0]), created: true };
      const existing: DncRow[] = await m.query(`SELECT * FROM dnc_entries WHERE workspace_id = $1 AND phone = $2`, [
        entry.workspaceId,
        entry.phone,
      ]);
      if (existing[0]) return { entry: toEntry(existing[0]), created: false };
      if (round >= 2) throw new Error(`dnc entry for ${entry.phone} neither inserted nor found`);
    }
  }

  async list(workspaceId: string, offset: number, limit: number): Promise<{ items: DncEntry[]; total: number }> {
    const rows: DncRow[] = await this.tx.manager.query(
      `SELECT * FROM dnc_entries WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT $3`,
      [workspaceId, offset, limit],
    );
    const [{ total }]: Array<{ total: string }> = await this.tx.manager.query(
      `SELECT count(*) AS total FROM dnc_entries WHERE workspace_id = $1`,
      [workspaceId],
    );
    return { items: rows.map(toEntry), total: Number(total) };
  }

  async removeById(workspaceId: string, id: string): Promise<boolean> {
    const [, count]: [unknown[], number] = await this.tx.manager.query(`DELETE FROM dnc_entries WHERE workspace_id = $1 AND id = $2`, [
      workspaceId,
      id,
    ]);
    return count > 0;
  }

  async removeByPhone(workspaceId: string, phone: string): Promise<boolean> {
    const [, count]: [unknown[], number] = await this.tx.manager.query(
      `DELETE FROM dnc_entries WHERE workspace_id = $1 AND phone = $2`,
      [workspaceId, phone],
    );
    return count > 0;
  }

  async listed(workspaceId: string, phones: string[]): Promise<string[]> {
    if (phones.length === 0) return [];
    const rows: Array<{ phone: string }> = await this.tx.manager.query(
      `SELECT phone FROM dnc_entries WHERE workspace_id = $1 AND phone = ANY($2::text[])`,
      [workspaceId, phones],
    );
    return rows.map((r) => r.phone);
  }
}
