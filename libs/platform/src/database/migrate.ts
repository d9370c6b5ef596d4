import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '@outreach/core';
import { MigrationList, postgresOptions } from './data-source-options';

/** Arbitrary but fixed: every process that migrates takes this advisory lock first. */
const MIGRATION_LOCK_ID = 727_400_101;

/** Creates the configured database when it does not exist yet (safe when several processes race). */
export async function ensureDatabase(config: AppConfig): Promise<void> {
  const target = config.databaseName;
  const adminUrl = new URL(config.databaseUrl);
  adminUrl.pathname = '/postgres';
  const client = new Client({ connectionString: adminUrl.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [target]);
    if (found.rowCount === 0) {
      try {
        await client.query(`CREATE DATABASE "${target.replace(/"/g, '""')}"`);
      } catch (error) {
        const code = (error as { code?: string }).code;
        // 42P04 duplicate_database, 23505 unique_violation: another process created it first.
        if (code !== '42P04' && code !== '23505') throw error;
      }
    }
  } finally {
    await client.end();
  }
}

/**
 * Applies pending migrations under a Postgres advisory lock, so an api and a worker booting
 * together never race. Uses its own short-lived connection without the API's query timeout.
 * Returns the names of the migrations it applied.
 */
export async function runMigrations(config: AppConfig, migrations: MigrationList): Promise<string[]> {
  await ensureDatabase(config);
  const dataSource = new DataSource({
    ...postgresOptions(config, { queryTimeoutMs: null, poolSize: 2, applicationName: 'outreach-migrate' }),
    migrations,
    entities: [],
  });
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}
