import { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue 14: order-notification rules and the notifications they send (decisions.md 31.14–31.15). */
export class OrderRules1763700011500 implements MigrationInterface {
  name = 'OrderRules1763700011500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE commerce_orders ADD COLUMN customer_name text NULL`);
    await q.query(`
      CREATE TABLE crm_order_rules (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        connection_id uuid NOT NULL REFERENCES crm_connections(id),
        event text NOT NULL CHECK (event IN ('ORDER_CREATED','ORDER_PAID','ORDER_FULFILLED','ORDER_CANCELLED','ORDER_UPDATED')),
        template_id uuid NOT NULL,
        preset text NULL,
        enabled boolean NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX crm_order_rules_event_idx ON crm_order_rules (connection_id, event)`);
    await q.query(`
      CREATE TABLE crm_order_notifications (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        connection_id uuid NOT NULL REFERENCES crm_connections(id),
        rule_id uuid NOT NULL,
        order_id uuid NOT NULL REFERENCES commerce_orders(id),
        event text NOT NULL,
        status text NOT NULL CHECK (status IN ('PENDING','SENT','FAILED','SKIPPED')),
        message_id uuid NULL,
        reason text NULL,
        cost_minor bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        attempted_at timestamptz NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX crm_order_notifications_once_idx ON crm_order_notifications (rule_id, order_id)`);
    await q.query(`CREATE INDEX crm_order_notifications_order_idx ON crm_order_notifications (connection_id, order_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE crm_order_notifications`);
    await q.query(`DROP TABLE crm_order_rules`);
    await q.query(`ALTER TABLE commerce_orders DROP COLUMN customer_name`);
  }
}
