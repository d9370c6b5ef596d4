import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import { TariffOverride, TariffRepository } from '../application/wallet.ports';

@Injectable()
export class TypeormTariffRepository extends TariffRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async find(workspaceId: string): Promise<TariffOverride | null> {
    const rows: Array<{ voice_minute_minor: string | null; message_minor: string | null }> = await this.tx.manager.query(
      `SELECT voice_minute_minor, message_minor FROM workspace_tariffs WHERE workspace_id = $1`,
      [workspaceId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      voiceMinuteMinor: row.voice_minute_minor === null ? null : Number(row.voice_minute_minor),
      messageMinor: row.message_minor === null ? null : Number(row.message_minor),
    };
  }

  async save(workspaceId: string, tariff: TariffOverride, at: Date): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO workspace_tariffs (workspace_id, voice_minute_minor, message_minor, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (workspace_id) DO UPDATE
         SET voice_minute_minor = EXCLUDED.voice_minute_minor, message_minor = EXCLUDED.message_minor, updated_at = EXCLUDED.updated_at`,
      [workspaceId, tariff.voiceMinuteMinor, tariff.messageMinor, at],
    );
  }
}
