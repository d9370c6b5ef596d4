import { MigrationInterface, QueryRunner } from 'typeorm';

/** The messaging foundation (issue 12): WhatsApp senders and templates, email senders and templates, opt-outs. */
export class Messaging1763700009900 implements MigrationInterface {
  name = 'Messaging1763700009900';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE whatsapp_senders (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        mode text NOT NULL CHECK (mode IN ('SHARED','DEDICATED')),
        number_source text NOT NULL CHECK (number_source IN ('PLATFORM_SHARED','OWN_NUMBER')),
        status text NOT NULL CHECK (status IN ('CONNECTING','CONNECTED','FAILED')),
        e164 text NOT NULL,
        phone_display text NOT NULL,
        is_default boolean NOT NULL DEFAULT false,
        has_credentials boolean NOT NULL DEFAULT false,
        credentials_sealed text NULL,
        verified_name text NULL,
        quality_rating text NULL,
        failure_reason text NULL,
        connected_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX whatsapp_senders_workspace_e164_key ON whatsapp_senders (workspace_id, e164)`);
    await q.query(`CREATE UNIQUE INDEX whatsapp_senders_one_default ON whatsapp_senders (workspace_id) WHERE is_default`);

    await q.query(`
      CREATE TABLE whatsapp_templates (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        name text NOT NULL,
        language text NOT NULL,
        category text NOT NULL CHECK (category IN ('MARKETING','UTILITY','AUTHENTICATION')),
        body text NOT NULL,
        footer text NULL,
        bindings jsonb NOT NULL DEFAULT '[]',
        status text NOT NULL CHECK (status IN ('DRAFT','PENDING','APPROVED','REJECTED')),
        rejection_reason text NULL,
        submitted_at timestamptz NULL,
        reviewed_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX whatsapp_templates_workspace_name_key ON whatsapp_templates (workspace_id, name, language)`);

    await q.query(`
      CREATE TABLE email_senders (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        from_address text NOT NULL,
        display_name text NOT NULL,
        reply_to text NULL,
        is_default boolean NOT NULL DEFAULT false,
        has_credentials boolean NOT NULL DEFAULT false,
        credentials_sealed text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX email_senders_workspace_address_key ON email_senders (workspace_id, from_address)`);
    await q.query(`CREATE UNIQUE INDEX email_senders_one_default ON email_senders (workspace_id) WHERE is_default`);

    await q.query(`
      CREATE TABLE email_templates (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        name text NOT NULL,
        subject text NOT NULL,
        html_body text NULL,
        text_body text NULL,
        bindings jsonb NOT NULL DEFAULT '[]',
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (html_body IS NOT NULL OR text_body IS NOT NULL)
      )`);
    await q.query(`CREATE UNIQUE INDEX email_templates_workspace_name_key ON email_templates (workspace_id, lower(name))`);
    await q.query(`CREATE UNIQUE INDEX email_templates_one_default ON email_templates (workspace_id) WHERE is_default`);

    await q.query(`
      CREATE TABLE message_opt_outs (
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        channel text NOT NULL CHECK (channel IN ('WHATSAPP','EMAIL')),
        address text NOT NULL,
        source text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, channel, address)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE message_opt_outs`);
    await q.query(`DROP TABLE email_templates`);
    await q.query(`DROP TABLE email_senders`);
    await q.query(`DROP TABLE whatsapp_templates`);
    await q.query(`DROP TABLE whatsapp_senders`);
  }
}
