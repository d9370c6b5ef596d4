import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import { TariffOverride, TariffRepository } from '../application/wallet.ports';
import { WORKSPACE_TARIFFS } from './persistence/workspace-tariff.table';

const t = WORKSPACE_TARIFFS.c;
const PRICES = ['voiceMinuteMinor', 'messageMinor'] as const;

@Injectable()
export class SqlTariffRepository extends TariffRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async find(workspaceId: string): Promise<TariffOverride | null> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT ${WORKSPACE_TARIFFS.select(undefined, PRICES)} FROM ${WORKSPACE_TARIFFS.name} WHERE ${t.workspaceId} = $1`,
      [workspaceId],
    );
    return rows[0] ? WORKSPACE_TARIFFS.fromRow(rows[0], PRICES) : null;
  }

  async save(workspaceId: string, tariff: TariffOverride, at: Date): Promise<void> {
    const { sql, params } = WORKSPACE_TARIFFS.insert(
      { workspaceId, voiceMinuteMinor: tariff.voiceMinuteMinor, messageMinor: tariff.messageMinor, updatedAt: at },
      `ON CONFLICT (${t.workspaceId}) DO UPDATE
         SET ${t.voiceMinuteMinor} = EXCLUDED.${t.voiceMinuteMinor}, ${t.messageMinor} = EXCLUDED.${t.messageMinor}, ${t.updatedAt} = EXCLUDED.${t.updatedAt}`,
    );
    await this.tx.manager.query(sql, params);
  }
}
