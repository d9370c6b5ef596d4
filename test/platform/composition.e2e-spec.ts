import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A module is its folder plus one line in each app's composition root (docs/extending.md): its
 * errors, configuration keys and migrations register themselves when the app loads the module.
 * This checks that every app root really loads every module: each knows the whole schema (every
 * migration file on disk) and every module's error codes.
 */
const root = join(__dirname, '../..');

function migrationFilesOnDisk(): string[] {
  const names: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\/migrations\/\d{13}-[^/]+\.ts$/.test(path)) names.push(name);
    }
  };
  walk(join(root, 'libs'));
  return names.map((n) => n.replace(/\.ts$/, '')).sort();
}

const APPS = {
  api: 'apps/api/src/api.module',
  worker: 'apps/worker/src/worker.module',
  // The CLI loads one module per command (apps/cli/src/cli-commands.ts); `migrate` loads them all here.
  cli: 'apps/cli/src/service-modules',
};

describe('composition roots', () => {
  const files = migrationFilesOnDisk();

  it.each(Object.entries(APPS))('%s registers every module’s migrations, in timestamp order', (_app, path) => {
    let names: string[] = [];
    let codes = 0;
    jest.isolateModules(() => {
      require(join(root, path));
      const platform = require('@outreach/platform');
      names = (platform.registeredMigrations() as Function[]).map((m) => m.name);
      codes = platform.registeredErrors().size;
    });
    expect(files.length).toBeGreaterThan(10);
    // Class names end with the file's 13-digit timestamp: compare the timestamps.
    const stamps = (list: string[]) => list.map((n) => /(\d{13})/.exec(n)![1]).sort();
    expect(stamps(names)).toEqual(stamps(files));
    expect([...stamps(names)]).toEqual(names.map((n) => /(\d{13})$/.exec(n)![1]));
    expect(codes).toBeGreaterThan(180);
  });
});
