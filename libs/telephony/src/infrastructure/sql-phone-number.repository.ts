import { Injectable } from '@nestjs/common';
import { isUniqueViolation, isUuid, TransactionHost } from '@outreach/platform';
import { AppError } from '@outreach/core';
import { CarrierSettingsRepository, PhoneNumberRepository, PhoneNumberView } from '../application/telephony.ports';
import { PhoneNumber } from '../domain/phone-number';

type Row = {
  id: string;
  workspace_id: string;
  e164: string;
  carrier: string;
  carrier_enabled: boolean;
  inbound: boolean;
  created_at: Date;
};

const SELECT = `
  SELECT n.id, n.workspace_id, n.e164, n.carrier, n.inbound, n.created_at,
         COALESCE(c.enabled, true) AS carrier_enabled
    FROM phone_numbers n
    LEFT JOIN telephony_carriers c ON c.workspace_id = n.workspace_id AND c.name = n.carrier`;

function toView(r: Row): PhoneNumberView {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    e164: r.e164,
    carrier: r.carrier,
    carrierEnabled: r.carrier_enabled,
    inbound: r.inbound,
    createdAt: r.created_at.toISOString(),
  };
}

@Injectable()
export class SqlPhoneNumberRepository extends PhoneNumberRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(number: PhoneNumber): Promise<void> {
    const p = number.toProps();
    try {
      await this.tx.manager.query(
        `INSERT INTO phone_numbers (id, workspace_id, e164, carrier, inbound, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [p.id, p.workspaceId, p.e164, p.carrier, p.inbound, p.createdAt],
      );
    } catch (error) {
      if (isUniqueViolation(error, 'phone_numbers_e164_key')) {
        throw new AppError('invalid_request', { message: `${p.e164} is registered already` });
      }
      throw error;
    }
  }

  async listByWorkspace(workspaceId: string): Promise<PhoneNumberView[]> {
    const rows: Row[] = await this.tx.manager.query(`${SELECT} WHERE n.workspace_id = $1 ORDER BY n.created_at, n.id`, [workspaceId]);
    return rows.map(toView);
  }

  async findByIds(workspaceId: string, ids: readonly string[]): Promise<PhoneNumberView[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const rows: Row[] = await this.tx.manager.query(
      `${SELECT} WHERE n.workspace_id = $1 AND n.id = ANY($2::uuid[]) ORDER BY n.created_at, n.id`,
      [workspaceId, valid],
    );
    return rows.map(toView);
  }
}

@Injectable()
export class SqlCarrierSettingsRepository extends CarrierSettingsRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async setEnabled(workspaceId: string, carrier: string, enabled: boolean, now: Date): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO telephony_carriers (workspace_id, name, enabled, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (workspace_id, name) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = EXCLUDED.updated_at`,
      [workspaceId, carrier, enabled, now],
    );
  }
}
