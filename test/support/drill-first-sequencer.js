// Jest starts the files it timed before longest first; a fresh clone (CI) has no timings, so jest
// falls back to file size, and the journey SIGKILL drill (a short file, 90 s of mostly waiting on a
// worker process) started last while the other worker sat idle: the fresh-clone run of 2026-11-29
// took 1,212 s of CI's 1,200 s, the drill ending alone. It starts first now, beside whatever jest
// picks; every other file keeps jest's own order. Moving every heavy file to the front was measured
// slower (decisions.md 10.12): heavy drills side by side slow each other down.
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
