import { Injectable } from '@nestjs/common';
import { isUniqueViolation, isUuid, TransactionHost } from '@outreach/platform';
import { AppError } from '@outreach/core';
import { CarrierSettingsRepository, PhoneNumberRepository, PhoneNumberView } from '../../application/telephony.ports';
import { PhoneNumber } from '../../domain/phone-number';
import { PHONE_NUMBERS, PHONE_NUMBERS_E164_KEY } from './phone-number.table';
import { TELEPHONY_CARRIERS } from './telephony-carrier.table';

type Row = Record<string, unknown>;

const N = PHONE_NUMBERS.c;
const C = TELEPHONY_CARRIERS.c;

/** A number with its carrier's switch (no row: enabled). */
const SELECT_VIEW = `
  SELECT ${PHONE_NUMBERS.select('n')}, n.provider_number_id, n.inbound_agent_id, COALESCE(c.${C.enabled}, true) AS carrier_enabled
    FROM ${PHONE_NUMBERS.name} n
    LEFT JOIN ${TELEPHONY_CARRIERS.name} c ON c.${C.workspaceId} = n.${N.workspaceId} AND c.${C.name} = n.${N.carrier}`;

function toView(row: Row): PhoneNumberView {
  const n = PHONE_NUMBERS.fromRow(row);
  return {
    id: n.id,
    workspaceId: n.workspaceId,
    e164: n.e164,
    carrier: n.carrier,
    carrierEnabled: row.carrier_enabled as boolean,
    inbound: n.inbound,
    createdAt: n.createdAt.toISOString(),
    providerNumberId: (row.provider_number_id as string | null) ?? null,
    inboundAgentId: (row.inbound_agent_id as string | null) ?? null,
  };
}

@Injectable()
export class SqlPhoneNumberRepository extends PhoneNumberRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(number: PhoneNumber): Promise<void> {
    const props = number.toProps();
    const { sql, params } = PHONE_NUMBERS.insert(props);
    try {
      await this.tx.manager.query(sql, params);
    } catch (error) {
      if (isUniqueViolation(error, PHONE_NUMBERS_E164_KEY)) {
        throw new AppError('invalid_request', { message: `${props.e164} is registered already` });
      }
      throw error;
    }
  }

  async listByWorkspace(workspaceId: string): Promise<PhoneNumberView[]> {
    const rows: Row[] = await this.tx.manager.query(`${SELECT_VIEW} WHERE n.${N.workspaceId} = $1 ORDER BY n.${N.createdAt}, n.${N.id}`, [
      workspaceId,
    ]);
    return rows.map(toView);
  }

  async findByIds(workspaceId: string, ids: readonly string[]): Promise<PhoneNumberView[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const rows: Row[] = await this.tx.manager.query(
      `${SELECT_VIEW} WHERE n.${N.workspaceId} = $1 AND n.${N.id} = ANY($2::uuid[]) ORDER BY n.${N.createdAt}, n.${N.id}`,
      [workspaceId, valid],
    );
    return rows.map(toView);
  }

  async findByE164(workspaceId: string, e164: string): Promise<PhoneNumberView | null> {
    const rows: Row[] = await this.tx.manager.query(`${SELECT_VIEW} WHERE n.${N.workspaceId} = $1 AND n.${N.e164} = $2`, [workspaceId, e164]);
    return rows.length === 0 ? null : toView(rows[0]);
  }

  async setProviderNumberId(workspaceId: string, id: string, providerNumberId: string): Promise<void> {
    await this.tx.manager.query(`UPDATE ${PHONE_NUMBERS.name} SET provider_number_id = $3 WHERE ${N.workspaceId} = $1 AND ${N.id} = $2`, [
      workspaceId,
      id,
      providerNumberId,
    ]);
  }

  async setInboundAgent(workspaceId: string, id: string, agentId: string | null): Promise<void> {
    await this.tx.manager.query(`UPDATE ${PHONE_NUMBERS.name} SET inbound_agent_id = $3 WHERE ${N.workspaceId} = $1 AND ${N.id} = $2`, [workspaceId, id, agentId]);
  }

  async listByInboundAgent(workspaceId: string, agentId: string): Promise<PhoneNumberView[]> {
    if (!isUuid(agentId)) return [];
    const rows: Row[] = await this.tx.manager.query(
      `${SELECT_VIEW} WHERE n.${N.workspaceId} = $1 AND n.inbound_agent_id = $2 ORDER BY n.${N.createdAt}, n.${N.id}`,
      [workspaceId, agentId],
    );
    return rows.map(toView);
  }

  async findAnyByE164(e164: string): Promise<PhoneNumberView | null> {
    const rows: Row[] = await this.tx.manager.query(`${SELECT_VIEW} WHERE n.${N.e164} = $1`, [e164]);
    return rows.length === 0 ? null : toView(rows[0]);
  }
}

@Injectable()
export class SqlCarrierSettingsRepository extends CarrierSettingsRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async setEnabled(workspaceId: string, carrier: string, enabled: boolean, now: Date): Promise<void> {
    const { sql, params } = TELEPHONY_CARRIERS.insert(
      { workspaceId, name: carrier, enabled, updatedAt: now },
      `ON CONFLICT (${C.workspaceId}, ${C.name}) DO UPDATE SET ${C.enabled} = EXCLUDED.${C.enabled}, ${C.updatedAt} = EXCLUDED.${C.updatedAt}`,
    );
    await this.tx.manager.query(sql, params);
  }
}
