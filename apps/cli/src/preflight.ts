import { Client } from 'pg';
import { AppConfig, ensureDatabase } from '@outreach/platform';

/**
 * Checks the database before Nest boots, so a CLI run fails in a moment with one clear line
 * instead of sitting through TypeORM's connection retries. `migrate` creates the database when it
 * does not exist yet (as the api does at boot); every other command needs it to be there.
 */
export async function preflight(config: AppConfig, commandName: string | undefined): Promise<void> {
  if (commandName === 'migrate') {
    await ensureDatabase(config);
    return;
  }
  const client = new Client({
    connectionString: config.databaseUrl,
    connectionTimeoutMillis: Math.max(config.dbConnectTimeoutMs, 2000),
    application_name: 'outreach-cli',
  });
  try {
    await client.connect();
  } finally {
    await client.end().catch(() => undefined);
  }
}
