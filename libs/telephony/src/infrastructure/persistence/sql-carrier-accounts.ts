import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import {
  CarrierAccount,
  CarrierAccounts,
  ProviderAgents,
  RealVoiceAdapterName,
  VoiceAdapterName,
  VoiceCallRoute,
  VoiceCallRoutes,
} from '../../application/carrier-accounts';
import { CarrierCredentialSealer } from '../carrier-credential.sealer';
import { TWILIO_DEFAULT_BASE_URL } from '../twilio-voice.adapter';
import { VAPI_DEFAULT_BASE_URL } from '../vapi-voice.adapter';

type Row = Record<string, unknown>;

const DEFAULT_BASE_URL: Record<RealVoiceAdapterName, string> = { twilio: TWILIO_DEFAULT_BASE_URL, vapi: VAPI_DEFAULT_BASE_URL };

/** `telephony_carriers`' adapter, API root and sealed credentials (migration 1763700009600). */
@Injectable()
export class SqlCarrierAccounts extends CarrierAccounts {
  constructor(
    private readonly tx: TransactionHost,
    private readonly sealer: CarrierCredentialSealer,
  ) {
    super();
  }

  async find(workspaceId: string, carrier: string): Promise<CarrierAccount | null> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT workspace_id, name, enabled, adapter, base_url, credentials_sealed FROM telephony_carriers
        WHERE workspace_id = $1 AND name = $2 AND adapter IN ('twilio', 'vapi') AND credentials_sealed IS NOT NULL`,
      [workspaceId, carrier],
    );
    return rows.length === 0 ? null : this.toAccount(rows[0]);
  }

  async listEnabled(workspaceId: string, adapter: RealVoiceAdapterName): Promise<CarrierAccount[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT workspace_id, name, enabled, adapter, base_url, credentials_sealed FROM telephony_carriers
        WHERE workspace_id = $1 AND adapter = $2 AND enabled AND credentials_sealed IS NOT NULL ORDER BY name`,
      [workspaceId, adapter],
    );
    return rows.map((row) => this.toAccount(row));
  }

  async configure(input: {
    workspaceId: string;
    carrier: string;
    adapter: VoiceAdapterName;
    baseUrl: string | null;
    credentials: Record<string, string> | null;
    now: Date;
  }): Promise<{ enabled: boolean }> {
    const sealed = input.adapter === 'sandbox' || !input.credentials ? null : this.sealer.seal(input.credentials, input.workspaceId, input.carrier);
    const rows: Array<{ enabled: boolean }> = await this.tx.manager.query(
      `INSERT INTO telephony_carriers (workspace_id, name, enabled, adapter, base_url, credentials_sealed, updated_at)
       VALUES ($1, $2, true, $3, $4, $5, $6)
       ON CONFLICT (workspace_id, name) DO UPDATE
         SET adapter = EXCLUDED.adapter, base_url = EXCLUDED.base_url, credentials_sealed = EXCLUDED.credentials_sealed, updated_at = EXCLUDED.updated_at
       RETURNING enabled`,
      [input.workspaceId, input.carrier, input.adapter, input.adapter === 'sandbox' ? null : input.baseUrl, sealed, input.now],
    );
    return { enabled: rows[0].enabled };
  }

  private toAccount(row: Row): CarrierAccount {
    const workspaceId = row.workspace_id as string;
    const carrier = row.name as string;
    const adapter = row.adapter as RealVoiceAdapterName;
    return {
      workspaceId,
      carrier,
      adapter,
      enabled: row.enabled as boolean,
      baseUrl: ((row.base_url as string | null) ?? DEFAULT_BASE_URL[adapter]).replace(/\/+$/, ''),
      credentials: this.sealer.open(row.credentials_sealed as string, workspaceId, carrier),
    };
  }
}

/** `voice_call_routes` (migration 1763700009600). */
@Injectable()
export class SqlVoiceCallRoutes extends VoiceCallRoutes {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async open(route: Omit<VoiceCallRoute, 'providerCallId'>): Promise<VoiceCallRoute> {
    await this.tx.manager.query(
      `INSERT INTO voice_call_routes (call_id, workspace_id, carrier, adapter) VALUES ($1, $2, $3, $4) ON CONFLICT (call_id) DO NOTHING`,
      [route.callId, route.workspaceId, route.carrier, route.adapter],
    );
    return (await this.find(route.callId))!;
  }

  async accepted(callId: string, providerCallId: string): Promise<void> {
    await this.tx.manager.query(`UPDATE voice_call_routes SET provider_call_id = $2 WHERE call_id = $1`, [callId, providerCallId]);
  }

  async find(callId: string): Promise<VoiceCallRoute | null> {
    const rows: Row[] = await this.tx.manager.query(`SELECT * FROM voice_call_routes WHERE call_id = $1`, [callId]);
    return rows.length === 0 ? null : toRoute(rows[0]);
  }

  async findByProviderCallId(adapter: RealVoiceAdapterName, providerCallId: string): Promise<VoiceCallRoute | null> {
    const rows: Row[] = await this.tx.manager.query(`SELECT * FROM voice_call_routes WHERE adapter = $1 AND provider_call_id = $2 LIMIT 1`, [
      adapter,
      providerCallId,
    ]);
    return rows.length === 0 ? null : toRoute(rows[0]);
  }
}

function toRoute(row: Row): VoiceCallRoute {
  return {
    callId: row.call_id as string,
    workspaceId: row.workspace_id as string,
    carrier: row.carrier as string,
    adapter: row.adapter as RealVoiceAdapterName,
    providerCallId: (row.provider_call_id as string | null) ?? null,
  };
}

/** `voice_provider_agents` (migration 1763700009600). */
@Injectable()
export class SqlProviderAgents extends ProviderAgents {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async find(workspaceId: string, carrier: string, agentId: string): Promise<string | null> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT provider_agent_id FROM voice_provider_agents WHERE workspace_id = $1 AND carrier = $2 AND agent_id = $3`,
      [workspaceId, carrier, agentId],
    );
    return rows.length === 0 ? null : (rows[0].provider_agent_id as string);
  }

  async save(workspaceId: string, carrier: string, agentId: string, providerAgentId: string, now: Date): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO voice_provider_agents (workspace_id, carrier, agent_id, provider_agent_id, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (workspace_id, carrier, agent_id) DO UPDATE SET provider_agent_id = EXCLUDED.provider_agent_id, updated_at = EXCLUDED.updated_at`,
      [workspaceId, carrier, agentId, providerAgentId, now],
    );
  }
}
