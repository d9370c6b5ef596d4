// Jest starts the files it timed before longest first, which keeps its two workers finishing
// together. A fresh clone (CI) has no such timings, so jest falls back to file size, and the
// longest drills (fuzz, the SIGKILL drills, the operator CLI), which are short files, started
// last while the other worker sat idle: `npm test` took 1,092-1,190 s of CI's 1,200 s. This
// sequencer uses the durations recorded in test/support/test-durations.json (seconds per file,
// from a full local run; refresh with `node test/support/longest-first-sequencer.js <jest --json
// output>`) and orders by them, longest first, on every machine. A file not listed yet counts as
// an average one of its kind; a stale entry only costs order, never a test.
const Sequencer = require('@jest/test-sequencer').default;
const { readFileSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const ROOT = join(__dirname, '../..');
const FILE = join(__dirname, 'test-durations.json');
/** Seconds assumed for a file with no recorded duration: about the median of its tier. */
const UNKNOWN = { e2e: 12, unit: 1 };

function recorded() {
  try {
    return JSON.parse(readFileSync(FILE, 'utf8'));
  } catch {
    return {};
  }
}

class LongestFirst extends Sequencer {
  sort(tests) {
    const durations = recorded();
    const estimate = (test) => {
      const known = durations[relative(ROOT, test.path)];
      if (typeof known === 'number') return known;
      return test.path.endsWith('.e2e-spec.ts') ? UNKNOWN.e2e : UNKNOWN.unit;
    };
    // Array.prototype.sort is stable: equal estimates keep jest's own order.
    return [...super.sort(tests)].sort((a, b) => estimate(b) - estimate(a));
  }
}

module.exports = LongestFirst;

// `node test/support/longest-first-sequencer.js run.json`: rewrites test-durations.json from a
// `jest --json --outputFile=run.json` run (every file's wall time, rounded to 0.1 s).
if (require.main === module) {
  const run = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  const durations = {};
  for (const result of run.testResults.sort((a, b) => a.name.localeCompare(b.name))) {
    durations[relative(ROOT, result.name)] = Math.round((result.endTime - result.startTime) / 100) / 10;
  }
  writeFileSync(FILE, JSON.stringify(durations, null, 2) + '\n');
  process.stdout.write(`${Object.keys(durations).length} durations written to ${relative(ROOT, FILE)}\n`);
}
