import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Real voice providers (issue 11, item 4; decisions.md 27): a carrier's adapter and its sealed
 * credentials, a number's id at the provider, the provider's id of an agent, and which provider
 * carries each call placed through a real adapter.
 */
export class RealVoiceProviders1763700009600 implements MigrationInterface {
  name = 'RealVoiceProviders1763700009600';

  async up(q: QueryRunner): Promise<void> {
    // adapter: sandbox | twilio | vapi (null: the carrier is switched on or off only, the sandbox carries its calls).
    await q.query(`ALTER TABLE telephony_carriers ADD COLUMN adapter text NULL`);
    await q.query(`ALTER TABLE telephony_carriers ADD COLUMN base_url text NULL`);
    await q.query(`ALTER TABLE telephony_carriers ADD COLUMN credentials_sealed text NULL`);
    // The number's id at the provider (Vapi's phoneNumberId); null until the number is synced.
    await q.query(`ALTER TABLE phone_numbers ADD COLUMN provider_number_id text NULL`);
    await q.query(`
      CREATE TABLE voice_provider_agents (
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        carrier text NOT NULL,
        agent_id uuid NOT NULL,
        provider_agent_id text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, carrier, agent_id)
      )`);
    await q.query(`
      CREATE TABLE voice_call_routes (
        call_id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        carrier text NOT NULL,
        adapter text NOT NULL,
        provider_call_id text NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX voice_call_routes_provider_call_idx ON voice_call_routes (adapter, provider_call_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE voice_call_routes`);
    await q.query(`DROP TABLE voice_provider_agents`);
    await q.query(`ALTER TABLE phone_numbers DROP COLUMN provider_number_id`);
    await q.query(`ALTER TABLE telephony_carriers DROP COLUMN credentials_sealed`);
    await q.query(`ALTER TABLE telephony_carriers DROP COLUMN base_url`);
    await q.query(`ALTER TABLE telephony_carriers DROP COLUMN adapter`);
  }
}
