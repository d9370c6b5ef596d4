import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config';

describe('configuration', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/outreach');
    expect(c.databaseName).toBe('outreach');
    expect(c.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(c.rateLimitPerMinute).toBe(600);
    expect(c.bodyLimitBytes).toBe(1024 * 1024);
    expect(c.dbQueryTimeoutMs).toBe(700);
    expect(loadConfig({}, { dbQueryTimeoutMs: 60000 }).dbQueryTimeoutMs).toBe(60000);
  });

  it('reports every bad variable, one readable line each', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x/y', REDIS_URL: '::', LOG_LEVEL: 'loud', DEFAULT_CURRENCY: 'usd' });
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems).toHaveLength(5);
    expect(error!.problems.join('\n')).toMatch(/PORT="eighty"/);
    expect(error!.message.split('\n')).toHaveLength(6);
  });

  it('the swc build and the type-checker resolve the same path aliases', () => {
    const root = join(__dirname, '../../..');
    const ts = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')).compilerOptions.paths;
    const swc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8')).jsc.paths;
    expect(swc).toEqual(ts);
    // One alias, @outreach/* → libs/*/src: every library folder has its src/index.ts.
    expect(ts).toEqual({ '@outreach/*': ['libs/*/src'] });
    for (const lib of readdirSync(join(root, 'libs'))) {
      expect(existsSync(join(root, 'libs', lib, 'src', 'index.ts'))).toBe(true);
    }
  });
});
