import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import { OptOutRepository } from '../../application/messaging.ports';
import { MessageChannel } from '../../domain/opt-out';
import { MESSAGE_OPT_OUTS } from './messaging.tables';

const O = MESSAGE_OPT_OUTS.c;

@Injectable()
export class SqlOptOutRepository extends OptOutRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async record(entry: { workspaceId: string; channel: MessageChannel; address: string; source: string; at: Date }): Promise<boolean> {
    const { sql, params } = MESSAGE_OPT_OUTS.insert(
      { workspaceId: entry.workspaceId, channel: entry.channel, address: entry.address, source: entry.source, createdAt: entry.at },
      `ON CONFLICT (${O.workspaceId}, ${O.channel}, ${O.address}) DO NOTHING RETURNING 1 AS inserted`,
    );
    const rows: unknown[] = await this.tx.manager.query(sql, params);
    return rows.length > 0;
  }

  async recordMany<E extends { workspaceId: string; channel: MessageChannel; address: string; source: string; at: Date }>(entries: readonly E[]): Promise<E[]> {
    if (entries.length === 0) return [];
    const { sql, params } = MESSAGE_OPT_OUTS.insertMany(
      entries.map((e) => ({ workspaceId: e.workspaceId, channel: e.channel, address: e.address, source: e.source, createdAt: e.at })),
      `ON CONFLICT (${O.workspaceId}, ${O.channel}, ${O.address}) DO NOTHING RETURNING ${O.workspaceId} AS workspace_id, ${O.channel} AS channel, ${O.address} AS address`,
      ['workspaceId', 'channel', 'address', 'source', 'createdAt'],
    );
    const rows: Array<{ workspace_id: string; channel: string; address: string }> = await this.tx.manager.query(sql, params);
    const written = new Set(rows.map((row) => `${row.workspace_id}|${row.channel}|${row.address}`));
    // The first entry of each new opt-out (a batch may name one twice).
    return entries.filter((e) => written.delete(`${e.workspaceId}|${e.channel}|${e.address}`));
  }

  async isOptedOut(workspaceId: string, channel: MessageChannel, address: string): Promise<boolean> {
    if (!isUuid(workspaceId)) return false;
    const rows: unknown[] = await this.tx.manager.query(
      `SELECT 1 FROM ${MESSAGE_OPT_OUTS.name} WHERE ${O.workspaceId} = $1 AND ${O.channel} = $2 AND ${O.address} = $3`,
      [workspaceId, channel, address],
    );
    return rows.length > 0;
  }

  async optedOutAmong(workspaceId: string, channel: MessageChannel, addresses: readonly string[]): Promise<Set<string>> {
    if (!isUuid(workspaceId) || addresses.length === 0) return new Set();
    const rows: Array<{ address: string }> = await this.tx.manager.query(
      // One probe of the primary key per address, whatever the statistics say: as `address =
      // ANY($3)` a batch planned from statistics older than the table read every opt-out of the
      // workspace and channel (decisions.md 47.22). OFFSET 0 keeps the sub-select a probe.
      `SELECT q.address FROM unnest($3::text[]) AS q(address)
        CROSS JOIN LATERAL (SELECT 1 FROM ${MESSAGE_OPT_OUTS.name} o
                             WHERE o.${O.workspaceId} = $1 AND o.${O.channel} = $2 AND o.${O.address} = q.address OFFSET 0) hit`,
      [workspaceId, channel, [...new Set(addresses)]],
    );
    return new Set(rows.map((row) => row.address));
  }
}
