import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import type { RechargeProps, RechargeStatus } from '../domain/recharge';
import { RechargeRepository } from '../application/wallet.ports';

type RechargeRow = {
  id: string;
  workspace_id: string;
  status: RechargeStatus;
  amount_minor: string;
  currency: string;
  reference: string | null;
  description: string | null;
  created_at: Date;
  credited_at: Date | null;
};

function toProps(r: RechargeRow): RechargeProps {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    status: r.status,
    amountMinor: Number(r.amount_minor),
    currency: r.currency,
    reference: r.reference,
    description: r.description,
    createdAt: r.created_at,
    creditedAt: r.credited_at,
  };
}

@Injectable()
export class TypeormRechargeRepository extends RechargeRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(r: RechargeProps): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO recharges (id, workspace_id, status, amount_minor, currency, reference, description, created_at, credited_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [r.id, r.workspaceId, r.status, r.amountMinor, r.currency, r.reference, r.description, r.createdAt, r.creditedAt],
    );
  }

  async update(r: RechargeProps): Promise<void> {
    await this.tx.manager.query(`UPDATE recharges SET status = $3, credited_at = $4 WHERE workspace_id = $1 AND id = $2`, [
      r.workspaceId,
      r.id,
      r.status,
      r.creditedAt,
    ]);
  }

  async findById(workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<RechargeProps | null> {
    const rows: RechargeRow[] = await this.tx.manager.query(
      `SELECT * FROM recharges WHERE workspace_id = $1 AND id = $2${options.lock ? ' FOR UPDATE' : ''}`,
      [workspaceId, id],
    );
    return rows[0] ? toProps(rows[0]) : null;
  }

  async list(workspaceId: string, offset: number, limit: number): Promise<{ items: RechargeProps[]; total: number }> {
    const rows: RechargeRow[] = await this.tx.manager.query(
      `SELECT * FROM recharges WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT $3`,
      [workspaceId, offset, limit],
    );
    const [{ total }]: Array<{ total: string }> = await this.tx.manager.query(
      `SELECT count(*) AS total FROM recharges WHERE workspace_id = $1`,
      [workspaceId],
    );
    return { items: rows.map(toProps), total: Number(total) };
  }
}
