// Runs once per jest run, before any worker starts: builds dist/ for the tests that start the
// real processes (CLI, worker, API children). Building once here, instead of in each such test
// file, keeps one jest worker from rewriting dist/ while the other boots a process from it (a
// half-written file made a provider `undefined`). The unit tier (TEST_TIER=unit) starts no
// process and skips it.
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

module.exports = async () => {
  if (process.env.TEST_TIER === 'unit') return;
  execFileSync('npm', ['run', '-s', 'build'], { cwd: join(__dirname, '../..'), stdio: 'inherit', timeout: 240_000 });
};
