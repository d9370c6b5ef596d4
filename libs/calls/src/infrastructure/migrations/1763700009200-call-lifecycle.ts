import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event-driven call lifecycle (decisions.md 16.24): a call is QUEUED, then DIALING, RINGING,
 * IN_PROGRESS as the provider reports it, then ENDED or FAILED; and the provider events already
 * applied, by the provider's own event id, so a redelivered webhook is recognised and skipped.
 */
export class CallLifecycle1763700009200 implements MigrationInterface {
  name = 'CallLifecycle1763700009200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calls DROP CONSTRAINT calls_status_check`);
    await q.query(`ALTER TABLE calls ADD CONSTRAINT calls_status_check CHECK (status IN ('QUEUED','DIALING','RINGING','IN_PROGRESS','ENDED','FAILED'))`);
    await q.query(`
      CREATE TABLE call_events (
        provider text NOT NULL,
        event_id text NOT NULL,
        call_id uuid NOT NULL,
        type text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (provider, event_id)
      )`);
    await q.query(`CREATE INDEX call_events_received_idx ON call_events (received_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE call_events`);
    await q.query(`UPDATE calls SET status = 'IN_PROGRESS' WHERE status IN ('QUEUED','DIALING','RINGING')`);
    await q.query(`ALTER TABLE calls DROP CONSTRAINT calls_status_check`);
    await q.query(`ALTER TABLE calls ADD CONSTRAINT calls_status_check CHECK (status IN ('IN_PROGRESS','ENDED','FAILED'))`);
  }
}
