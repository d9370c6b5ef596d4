import { randomUUID } from 'node:crypto';
import { AppConfig, loadConfig } from '@outreach/core';
import { prepared, preparedStatementName } from '@outreach/platform';
import { bearer, TestApp } from '../support/test-app';
import { expectError, pushLead, runningApiCampaign } from '../results/results-helpers';

/**
 * The lead push's one statement and the result read run as named (server-side prepared)
 * statements unless DB_PREPARED_STATEMENTS=false (decisions.md 46.10). With a pool of one
 * connection, the app's statements and this test's look-up share one Postgres session, whose
 * pg_prepared_statements lists what it prepared.
 */
describe('prepared statements on the hot paths (DB_PREPARED_STATEMENTS)', () => {
  async function preparedAfterTraffic(setting: string | undefined): Promise<Array<{ name: string; statement: string; generic_plans: string; custom_plans: string }>> {
    const env: Record<string, string | undefined> = { ...process.env, DB_POOL_SIZE: '1', DB_PREPARED_STATEMENTS: setting };
    const t = await TestApp.create({ configure: (b) => b.overrideProvider(AppConfig).useValue(loadConfig(env)) });
    try {
      await t.reset();
      const ws = await t.seed({ features: ['api_results'] });
      const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
      // The first push of a process to a campaign takes the transaction; the next ones are the one statement.
      for (let i = 0; i < 7; i++) expect((await pushLead(t, ws.key, c.id, { idempotencyKey: `k${i}`, phone: `+1415555010${i}` })).status).toBe(201);
      for (let i = 0; i < 7; i++) expectError(await t.http.get(`/v1/results/${randomUUID()}`).set(bearer(ws.key)), 404, 'result_not_found');
      const [{ contacts }] = await t.dataSource.query(`SELECT count(*)::int AS contacts FROM campaign_contacts WHERE campaign_id = $1`, [c.id]);
      expect(contacts).toBe(7);
      return await t.dataSource.query(`SELECT name, statement, generic_plans, custom_plans FROM pg_prepared_statements ORDER BY name`);
    } finally {
      await t.close();
    }
  }

  it('on by default: the push and the read are prepared once on the connection, under names made from their text', async () => {
    const statements = await preparedAfterTraffic(undefined);
    const push = statements.filter((s) => s.statement.includes('INSERT INTO api_lead_keys'));
    const read = statements.filter((s) => /^SELECT .* FROM lead_results WHERE id = \$1 AND workspace_id = \$2$/s.test(s.statement));
    expect(push).toHaveLength(1);
    expect(read).toHaveLength(1);
    for (const s of [...push, ...read]) expect(s.name).toMatch(/^outreach_[0-9a-f]{24}$/);
    // Only marked statements are named: nothing else the requests ran (the key look-up, the first push's transaction) is.
    expect(statements).toHaveLength(2);
    // Planned at every run for its values (plan_cache_mode = force_custom_plan, decisions.md 46.11): never a generic plan.
    for (const s of [...push, ...read]) expect({ generic: Number(s.generic_plans), custom: Number(s.custom_plans) >= 6 }).toEqual({ generic: 0, custom: true });
  });

  it('a statement prepared while its table was empty reads it by index once the table has grown (no generic plan kept from then)', async () => {
    const env: Record<string, string | undefined> = { ...process.env, DB_POOL_SIZE: '1' };
    const t = await TestApp.create({ configure: (b) => b.overrideProvider(AppConfig).useValue(loadConfig(env)) });
    try {
      // A temporary table lives in the pool's one session, so the app's connection both prepares and explains.
      await t.dataSource.query(`CREATE TEMPORARY TABLE plan_probe (id int PRIMARY KEY, v text NOT NULL)`);
      await t.dataSource.query(`VACUUM ANALYZE plan_probe`);
      const read = prepared(`SELECT v FROM plan_probe WHERE id = $1`);
      // More than the five runs after which Postgres would keep a generic plan, all on the empty table.
      for (let i = 0; i < 8; i++) expect(await t.dataSource.query(read, [i])).toEqual([]);
      await t.dataSource.query(`INSERT INTO plan_probe SELECT i, 'v' || i FROM generate_series(1, 50000) i`);
      expect(await t.dataSource.query(read, [4242])).toEqual([{ v: 'v4242' }]);

      const name = preparedStatementName(read)!;
      const [{ 'QUERY PLAN': plan }] = await t.dataSource.query(`EXPLAIN (FORMAT JSON) EXECUTE ${name}(4242)`);
      // A generic plan made on the empty table is a Seq Scan of all 50,000 rows; planned now, it is the primary key.
      expect(plan[0].Plan['Node Type']).toMatch(/^Index/);
      expect(plan[0].Plan['Index Name']).toBe('plan_probe_pkey');
      const [{ generic_plans }] = await t.dataSource.query(`SELECT generic_plans FROM pg_prepared_statements WHERE name = $1`, [name]);
      expect(Number(generic_plans)).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('DB_PREPARED_STATEMENTS=false: the same traffic prepares nothing', async () => {
    expect(await preparedAfterTraffic('false')).toEqual([]);
  });
});
