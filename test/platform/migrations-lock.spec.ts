import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * A migration that has run anywhere is never edited (docs/decisions.md 8.7): a database that ran
 * the old text would never get the new one. `migrations.lock.json` holds the SHA-256 of every
 * migration file; this fails when a recorded file changed or disappeared, and when a new file is
 * not recorded yet. Record new files with `UPDATE_MIGRATIONS_LOCK=1 npx jest test/platform/migrations-lock`
 * (it only ever adds entries).
 */
const root = join(__dirname, '../..');
const LOCK = join(__dirname, 'migrations.lock.json');

function migrationFiles(): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\/migrations\/\d{13}-[^/]+\.ts$/.test(path)) {
        found[relative(root, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
      }
    }
  };
  walk(join(root, 'libs'));
  return found;
}

describe('migrations lock (a released migration is never edited)', () => {
  it('every migration file is recorded, and none changed or disappeared since', () => {
    const lock = JSON.parse(readFileSync(LOCK, 'utf8')) as Record<string, string>;
    const files = migrationFiles();
    const changed = Object.keys(lock).filter((file) => files[file] !== undefined && files[file] !== lock[file]);
    const gone = Object.keys(lock).filter((file) => files[file] === undefined);
    let fresh = Object.keys(files).filter((file) => lock[file] === undefined);
    if (fresh.length > 0 && process.env.UPDATE_MIGRATIONS_LOCK === '1') {
      const updated = { ...lock };
      for (const file of fresh) updated[file] = files[file];
      writeFileSync(LOCK, `${JSON.stringify(Object.fromEntries(Object.entries(updated).sort()), null, 2)}\n`);
      fresh = [];
    }
    expect({ changed, gone, unrecorded: fresh }).toEqual({ changed: [], gone: [], unrecorded: [] });
  });
});
