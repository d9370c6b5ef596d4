// Jest runs the files it timed before longest first; a fresh clone (CI) has no timings, so jest
// falls back to file size, which ran the ~90 s journey SIGKILL drill last while the other worker
// sat idle (fresh-clone run of 2026-11-29: 1,092 s of `npm test`, the limit is 1,200 s for all of
// .ci/run). These files are the slowest of the suite, measured in fresh-clone runs; they start
// first, and every other file follows in jest's own order. The two SIGKILL drills, which mostly
// wait out leases, start side by side; the CPU-bound fuzz starts after the first of them ends,
// so it does not starve their timing.
const Sequencer = require('@jest/test-sequencer').default;
const { basename } = require('node:path');

const SLOWEST_FIRST = [
  'journey-drill.e2e-spec.ts',
  'worker-crash.e2e-spec.ts',
  'fuzz.e2e-spec.ts',
  'operator-cli.e2e-spec.ts',
  'export-crash.e2e-spec.ts',
  'outage-drill.e2e-spec.ts',
  'crm-import-crash.e2e-spec.ts',
  'crm.e2e-spec.ts',
  'campaigns.e2e-spec.ts',
  'scope-matrix.e2e-spec.ts',
  'tenancy-matrix.e2e-spec.ts',
  'message-send-drill.e2e-spec.ts',
  'journey-flush-drill.e2e-spec.ts',
];

class SlowestFirst extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const rank = (test) => {
      const i = SLOWEST_FIRST.indexOf(basename(test.path));
      return i === -1 ? SLOWEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: files off the list keep jest's order.
    return [...ordered].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = SlowestFirst;
