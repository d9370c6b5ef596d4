import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { registeredMigrations } from '@outreach/platform';

/**
 * Loads every module's public entry (libs/<module>/src/index.ts), as each app's composition root
 * does, and returns every migration they registered: the service's whole schema, for tests that
 * boot only a few Nest modules. Found by folder, so a new module needs no entry here.
 */
export function serviceMigrations(): ReturnType<typeof registeredMigrations> {
  const libs = join(__dirname, '../../libs');
  for (const lib of readdirSync(libs)) {
    if (existsSync(join(libs, lib, 'src', 'index.ts'))) require(`@outreach/${lib}`);
  }
  return registeredMigrations();
}
