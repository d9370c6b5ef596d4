import type { MigrationList } from './data-source-options';

/**
 * Every module ships its own migrations (`libs/<module>/src/infrastructure/migrations`) and
 * declares them once in its index.ts with `defineMigrations`, which registers them when the
 * module is loaded. A process applies what its modules registered, ordered by the 13-digit
 * timestamp that ends every migration class name. Each app's composition root loads every
 * module, so every process knows the whole schema (test/platform/composition.e2e-spec.ts checks
 * it against the migration files on disk).
 */
const registry = new Map<string, Function[]>();

export function defineMigrations<T extends Function[]>(owner: string, migrations: T): T {
  registry.set(owner, migrations);
  return migrations;
}

/** Every registered migration, in timestamp order. */
export function registeredMigrations(): MigrationList {
  return [...registry.values()].flat().sort((a, b) => timestampOf(a) - timestampOf(b));
}

function timestampOf(migration: Function): number {
  const match = /(\d{13})$/.exec(migration.name);
  if (!match) throw new Error(`migration ${migration.name} must end with a 13-digit timestamp`);
  return Number(match[1]);
}
