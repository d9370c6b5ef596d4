// Jest runs the files it timed before longest first; a fresh clone (CI) has no timings, so jest
// falls back to file size, which ran the ~90 s journey SIGKILL drill last while the other worker
// sat idle (fresh-clone run of 2026-11-29: 1,092 s of `npm test`; the limit is 1,200 s for all of
// .ci/run). That drill mostly waits out a 60 s message lease, so it starts first, beside whatever
// jest picks; every other file keeps jest's own order. (Moving the CPU-heavy drills to the front
// as well made crm.e2e-spec time out beside them: only this one moves.)
const Sequencer = require('@jest/test-sequencer').default;
const { basename } = require('node:path');

const FIRST = ['journey-drill.e2e-spec.ts'];

class WaitingDrillFirst extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const rank = (test) => {
      const i = FIRST.indexOf(basename(test.path));
      return i === -1 ? FIRST.length : i;
    };
    // Array.prototype.sort is stable: every other file keeps jest's order.
    return [...ordered].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = WaitingDrillFirst;
