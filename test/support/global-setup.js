// Runs once per jest run, before any worker starts: builds dist/ for the tests that start the
// real processes (CLI, worker, API children). Building once here, instead of in each such test
// file, keeps one jest worker from rewriting dist/ while the other boots a process from it (a
// half-written file made a provider `undefined`). The unit tier (TEST_TIER=unit) starts no
// process and skips it.
//
// It also writes the API's OpenAPI document once, from that build, for the answer check of every
// test file (test/support/openapi-check.ts): each file built it again in-process, about a second
// of CPU per file. The workers find it through OPENAPI_CHECK_DOCUMENT; a run with another global
// setup leaves that unset, and each file builds the document itself as before.
const { execFileSync } = require('node:child_process');
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

module.exports = async () => {
  if (process.env.TEST_TIER === 'unit') return;
  const root = join(__dirname, '../..');
  execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit', timeout: 240_000 });
  if (process.env.OPENAPI_CHECK === '0') return;
  const file = join(mkdtempSync(join(tmpdir(), 'outreach-openapi-')), 'openapi.json');
  execFileSync(process.execPath, [join(root, 'dist/apps/api/src/openapi.js'), file], { cwd: root, stdio: 'inherit', timeout: 60_000 });
  process.env.OPENAPI_CHECK_DOCUMENT = file;
};
