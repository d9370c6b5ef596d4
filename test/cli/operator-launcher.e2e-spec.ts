import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * bin/outreach-operator.js (package.json "bin", `npm run operator`): runs the CLI from dist/ and
 * rebuilds first only when a source under apps/ or libs/ (or .swcrc) is newer than the last
 * build's stamp. The decision is tested here on a scratch tree; the launcher itself runs commands
 * in operator-cli.e2e-spec.ts.
 */

interface BuildScript {
  STAMP: string;
  staleReason(root: string): string | null;
  ensureBuilt(root: string, options: { log?: (line: string) => void; rebuild?: (root: string) => void }): { rebuilt: boolean; reason?: string };
}
const buildScript = require('../../scripts/build.js') as BuildScript;

describe('operator launcher: the rebuild decision', () => {
  let root: string;
  const at = (seconds: number) => new Date(Date.UTC(2027, 0, 1, 12, 0, seconds));
  const touch = (relative: string, when: Date) => {
    const file = join(root, relative);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '// source\n');
    utimesSync(file, when, when);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'outreach-launcher-'));
    touch('apps/cli/src/main.ts', at(0));
    touch('libs/workspaces/src/domain/workspace.ts', at(0));
    touch('.swcrc', at(0));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('no stamp yet: rebuild', () => {
    expect(buildScript.staleReason(root)).toBe(`${buildScript.STAMP} is missing`);
  });

  it('every source older than the stamp: no rebuild; one newer file anywhere under apps/ or libs/, or .swcrc: rebuild', () => {
    touch(buildScript.STAMP, at(10));
    expect(buildScript.staleReason(root)).toBeNull();

    touch('libs/workspaces/src/domain/workspace.ts', at(11));
    expect(buildScript.staleReason(root)).toBe('libs/workspaces/src/domain/workspace.ts changed');

    touch('libs/workspaces/src/domain/workspace.ts', at(5));
    touch('apps/cli/src/commands/new.command.ts', at(20)); // a new file counts too
    expect(buildScript.staleReason(root)).toBe('apps/cli/src/commands/new.command.ts changed');

    touch('apps/cli/src/commands/new.command.ts', at(5));
    touch('.swcrc', at(12));
    expect(buildScript.staleReason(root)).toBe('.swcrc changed');

    touch('.swcrc', at(5));
    touch('test/cli/some.e2e-spec.ts', at(30)); // not compiled into dist/
    touch('README.md', at(30));
    expect(buildScript.staleReason(root)).toBeNull();
  });

  it('ensureBuilt rebuilds once, says why, and the next run finds dist/ up to date', () => {
    touch(buildScript.STAMP, at(10));
    touch('apps/cli/src/main.ts', at(11));
    const builds: string[] = [];
    const logged: string[] = [];
    const rebuild = (dir: string) => {
      builds.push(dir);
      touch(buildScript.STAMP, at(15)); // what scripts/build.js writes after swc
    };
    expect(buildScript.ensureBuilt(root, { rebuild, log: (line) => logged.push(line) })).toEqual({
      rebuilt: true,
      reason: 'apps/cli/src/main.ts changed',
    });
    expect(logged).toEqual(['rebuilding dist/ (apps/cli/src/main.ts changed)']);
    expect(buildScript.ensureBuilt(root, { rebuild, log: (line) => logged.push(line) })).toEqual({ rebuilt: false });
    expect(builds).toEqual([root]);
  });
});
