// Runs in every jest worker before any test file: each worker gets its own database and
// Redis key prefix, so test files can run in parallel without sharing state.
// TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/outreach_test) names the base;
// the worker number is appended. Its name must contain "test": the harness refuses otherwise.
const worker = process.env.JEST_WORKER_ID ?? '1';
const base = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/outreach_test');
const baseName = base.pathname.replace(/^\//, '').replace(/\/$/, '');
base.pathname = `/${baseName}_${worker}`;
process.env.DATABASE_URL = base.toString();
process.env.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
process.env.REDIS_PREFIX = `${baseName}_${worker}`;
if (process.env.TEST_TIER === 'unit') {
  // The fast tier (npm run test:unit: domain and use-case specs) needs no database and no Redis:
  // point both at a closed port so an accidental connection fails instead of passing quietly.
  process.env.DATABASE_URL = 'postgres://postgres@127.0.0.1:1/unit_tier_has_no_database_test';
  process.env.REDIS_URL = 'redis://127.0.0.1:1';
}
process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
process.env.NODE_ENV = 'test';
process.env.OUTBOX_POLL_MS = '50';
// The service's 500 ms connect timeout is for production, where a slow connect means an outage.
// Under a full suite on two cores a healthy connect can take longer, so test processes (and the
// workers they spawn) wait up to 5 s; the outage drills set 500 ms again where they measure it.
process.env.DB_CONNECT_TIMEOUT_MS = process.env.TEST_DB_CONNECT_TIMEOUT_MS ?? '5000';

// Every module's error codes and configuration keys, as in the apps (which load every module).
const { loadEveryModulePart } = require('./module-parts');
loadEveryModulePart('errors');
loadEveryModulePart('config');
