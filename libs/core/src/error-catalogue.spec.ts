import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from './app-error';
import { ERROR_CATALOGUE } from './error-catalogue';

/** The spec beside the checkout (CI, developers) or the copy kept in docs/spec. */
function specText(): string {
  const shared = join(__dirname, '../../../../../shared/spec/outreach-api.md');
  const copy = join(__dirname, '../../../../docs/spec/outreach-api.md');
  return readFileSync(existsSync(shared) ? shared : copy, 'utf8');
}

describe('error catalogue', () => {
  const rows = [...specText().matchAll(/^\| ([0-9, ]+) \| ([a-zA-Z_]+) \| .* \|$/gm)].map((m) => ({
    statuses: m[1].split(',').map((s) => Number(s.trim())),
    code: m[2],
  }));

  it('the spec has error tables to compare against', () => {
    expect(rows.length).toBeGreaterThan(150);
  });

  it('holds every error code of the spec with exactly the spec’s statuses', () => {
    const mismatches: string[] = [];
    for (const { code, statuses } of rows) {
      const def = (ERROR_CATALOGUE as Record<string, { status: number; also?: readonly number[] }>)[code];
      if (!def) {
        mismatches.push(`${code}: missing`);
        continue;
      }
      const have = [def.status, ...(def.also ?? [])].sort();
      if (JSON.stringify(have) !== JSON.stringify([...statuses].sort())) mismatches.push(`${code}: ${have} vs spec ${statuses}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('holds nothing the spec does not name', () => {
    const named = new Set(rows.map((r) => r.code));
    expect(Object.keys(ERROR_CATALOGUE).filter((c) => !named.has(c))).toEqual([]);
  });

  it('AppError takes the default status, an allowed alternative, and refuses others', () => {
    expect(new AppError('invalid_body').status).toBe(400);
    expect(new AppError('invalid_body', { status: 422 }).status).toBe(422);
    expect(new AppError('internal_error', { status: 413 }).status).toBe(413);
    expect(() => new AppError('not_found', { status: 418 })).toThrow(/not allowed/);
    expect(new AppError('forbidden').message).toMatch(/permission/i);
  });
});
