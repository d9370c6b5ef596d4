import { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue 14: shop orders told by the shop's webhooks (GET /commerce/orders, the order-updates summary). */
export class CommerceOrders1763700010001 implements MigrationInterface {
  name = 'CommerceOrders1763700010001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE commerce_orders (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        connection_id uuid NOT NULL REFERENCES crm_connections(id),
        external_id text NOT NULL,
        name text NOT NULL,
        email text NULL,
        phone text NULL,
        currency text NOT NULL,
        total_value double precision NOT NULL,
        financial_status text NULL,
        fulfillment_status text NULL,
        cod boolean NOT NULL,
        ordered_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX commerce_orders_external_idx ON commerce_orders (connection_id, external_id)`);
    await q.query(`CREATE INDEX commerce_orders_workspace_idx ON commerce_orders (workspace_id, ordered_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE commerce_orders`);
  }
}
