import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from './app-error';
import { defineErrors, registeredErrors } from './error-registry';
import { loadEveryModulePart } from '../../../test/support/module-parts';

/** The spec beside the checkout (CI, developers) or the copy kept in docs/spec. */
function specText(): string {
  const shared = join(__dirname, '../../../../shared/spec/outreach-api.md');
  const copy = join(__dirname, '../../../docs/spec/outreach-api.md');
  return readFileSync(existsSync(shared) ? shared : copy, 'utf8');
}

describe('error catalogue (composed from every module’s <module>.errors.ts)', () => {
  const files = loadEveryModulePart('errors');
  const rows = [...specText().matchAll(/^\| ([0-9, ]+) \| ([a-zA-Z_]+) \| .* \|$/gm)].map((m) => ({
    statuses: m[1].split(',').map((s) => Number(s.trim())),
    code: m[2],
  }));

  it('the spec has error tables, and every module has an errors file', () => {
    expect(rows.length).toBeGreaterThan(150);
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  it('holds every error code of the spec with exactly the spec’s statuses', () => {
    const mismatches: string[] = [];
    for (const { code, statuses } of rows) {
      const def = registeredErrors().get(code)?.definition;
      if (!def) {
        mismatches.push(`${code}: missing`);
        continue;
      }
      const have = [def.status, ...(def.also ?? [])].sort();
      if (JSON.stringify(have) !== JSON.stringify([...statuses].sort())) mismatches.push(`${code}: ${have} vs spec ${statuses}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('holds nothing the spec does not name, and each code exactly once in the sources', () => {
    const named = new Set(rows.map((r) => r.code));
    expect([...registeredErrors().keys()].filter((c) => !named.has(c))).toEqual([]);
    const sources = files.map((f) => readFileSync(f, 'utf8')).join('\n');
    const declared = [...sources.matchAll(/^ {2}([A-Za-z_]+): \{ status:/gm)].map((m) => m[1]);
    expect(declared.filter((c, i) => declared.indexOf(c) !== i)).toEqual([]);
    expect(declared.sort()).toEqual([...named].sort());
  });

  it('names every code of the catalogue in some test besides this one (a tripwire for "every code is provoked by a test")', () => {
    // Test files of the repository (unit specs beside the code, e2e specs under test/): a code no
    // test names is one no test provokes. Naming is not proof of provoking; a new code with no
    // test at all is what this catches.
    const root = join(__dirname, '../../..');
    const tests: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== 'node_modules') walk(path);
        } else if (/\.(e2e-)?spec\.ts$/.test(entry.name) && path !== __filename) {
          tests.push(path);
        }
      }
    };
    for (const dir of ['apps', 'libs', 'test']) walk(join(root, dir));
    const text = tests.map((file) => readFileSync(file, 'utf8')).join('\n');
    const unnamed = [...registeredErrors().keys()].filter((code) => !new RegExp(`['"\`]${code}['"\`]`).test(text));
    expect(tests.length).toBeGreaterThan(200);
    expect(unnamed).toEqual([]);
  });

  it('refuses a code that two modules define', () => {
    expect(() => defineErrors('someone-else', { campaign_not_found: { status: 404, message: 'x' } })).toThrow(/defined by both/);
  });

  it('AppError takes the default status, an allowed alternative, and refuses others', () => {
    expect(new AppError('invalid_body').status).toBe(400);
    expect(new AppError('invalid_body', { status: 422 }).status).toBe(422);
    expect(new AppError('internal_error', { status: 413 }).status).toBe(413);
    expect(() => new AppError('not_found', { status: 418 })).toThrow(/not allowed/);
    expect(new AppError('forbidden').message).toMatch(/permission/i);
  });
});
