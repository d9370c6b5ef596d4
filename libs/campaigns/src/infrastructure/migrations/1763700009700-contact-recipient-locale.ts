import { MigrationInterface, QueryRunner } from 'typeorm';
import { recipientLocaleOf } from '../../domain/recipient-locale';

const BATCH = 5000;

/**
 * Recipient-local hours (decisions.md 28): each contact's zone and holiday region, derived once from
 * its number (recipientLocaleOf) when it is created; this fills them for the contacts that exist,
 * in batches. Campaigns created before the setting keep dialling as they did: their settings get
 * `recipientHours: "off"` (new campaigns default to 08:00–21:00).
 */
export class ContactRecipientLocale1763700009700 implements MigrationInterface {
  name = 'ContactRecipientLocale1763700009700';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaign_contacts ADD COLUMN IF NOT EXISTS recipient_zone text NULL, ADD COLUMN IF NOT EXISTS recipient_region text NULL`);
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows: Array<{ id: string; phone: string }> = await q.query(
        `SELECT id, phone FROM campaign_contacts WHERE id > $1 ORDER BY id LIMIT ${BATCH}`,
        [after],
      );
      if (rows.length === 0) break;
      const locales = rows.map((r) => recipientLocaleOf(r.phone));
      await q.query(
        `UPDATE campaign_contacts c SET recipient_zone = t.zone, recipient_region = t.region
           FROM unnest($1::uuid[], $2::text[], $3::text[]) AS t(id, zone, region) WHERE c.id = t.id`,
        [rows.map((r) => r.id), locales.map((l) => l.zone), locales.map((l) => l.region)],
      );
      after = rows[rows.length - 1].id;
    }
    await q.query(
      `UPDATE campaigns SET settings = settings || '{"recipientHours": "off"}'::jsonb WHERE NOT (settings ? 'recipientHours')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE campaigns SET settings = settings - 'recipientHours' WHERE settings->>'recipientHours' = 'off'`);
    await q.query(`ALTER TABLE campaign_contacts DROP COLUMN recipient_zone, DROP COLUMN recipient_region`);
  }
}
