import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import type { RechargeProps } from '../domain/recharge';
import { RechargeRepository } from '../application/wallet.ports';
import { RECHARGES } from './persistence/recharge.table';

const r = RECHARGES.c;

@Injectable()
export class SqlRechargeRepository extends RechargeRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(recharge: RechargeProps): Promise<void> {
    const { sql, params } = RECHARGES.insert(recharge);
    await this.tx.manager.query(sql, params);
  }

  async update(recharge: RechargeProps): Promise<void> {
    const { sql, params } = RECHARGES.update(recharge, ['workspaceId', 'id'], ['status', 'creditedAt']);
    await this.tx.manager.query(sql, params);
  }

  async findById(workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<RechargeProps | null> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT ${RECHARGES.select()} FROM ${RECHARGES.name} WHERE ${r.workspaceId} = $1 AND ${r.id} = $2${options.lock ? ' FOR UPDATE' : ''}`,
      [workspaceId, id],
    );
    return rows[0] ? RECHARGES.fromRow(rows[0]) : null;
  }

  async list(workspaceId: string, offset: number, limit: number): Promise<{ items: RechargeProps[]; total: number }> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT ${RECHARGES.select()} FROM ${RECHARGES.name} WHERE ${r.workspaceId} = $1
        ORDER BY ${r.createdAt} DESC, ${r.id} DESC OFFSET $2 LIMIT $3`,
      [workspaceId, offset, limit],
    );
    const [{ total }]: Array<{ total: string }> = await this.tx.manager.query(
      `SELECT count(*) AS total FROM ${RECHARGES.name} WHERE ${r.workspaceId} = $1`,
      [workspaceId],
    );
    return { items: rows.map((row) => RECHARGES.fromRow(row)), total: Number(total) };
  }
}
