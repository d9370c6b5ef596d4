// One jest run covers every tier: domain unit tests (*.spec.ts next to the code) and
// integration/e2e tests (test/**/*.e2e-spec.ts) against the real PostgreSQL and Redis.
// Each jest worker gets its own database (outreach_test_<worker>) and Redis key prefix,
// so files run in parallel without sharing state.
const { compilerOptions } = require('./tsconfig.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  const key = '^' + alias.replace('/*', '/(.*)') + '$';
  moduleNameMapper[key] = '<rootDir>/' + target.replace('/*', '/$1');
}

// A young generation of 32 MB semi-spaces (Node's default is 16) for the jest workers and the
// processes the tests start, which inherit it: fewer scavenges of the short-lived objects each test
// file's app boot makes. Alternated runs of ten e2e files: 46.7/46.9 → 43.3/43.1/40.2 s of wall time;
// 64 MB was slower (46.2 s). Decisions.md 10.15.
if (!/--max-semi-space-size/.test(process.env.NODE_OPTIONS ?? '')) {
  process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, '--max-semi-space-size=32'].filter(Boolean).join(' ');
}

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test'],
  testRegex: '.*\\.(spec|e2e-spec)\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'json', 'mjs'],
  transform: {
    '^.+\\.ts$': '@swc/jest',
    '^.+\\.m?js$': [
      '@swc/jest',
      { swcrc: false, jsc: { parser: { syntax: 'ecmascript' }, target: 'es2023' }, module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: [
    '/node_modules/(?!(@nestjs|file-type|strtok3|token-types|@tokenizer|uint8array-extras|@borewit|unpdf)/)',
  ],
  moduleNameMapper: {
    ...moduleNameMapper,
    // unpdf's CommonJS build loads PDF.js with a native import(), which jest's VM refuses without
    // --experimental-vm-modules: tests load its ESM build instead, transformed like the packages above.
    '^unpdf$': '<rootDir>/node_modules/unpdf/dist/index.mjs',
    '^unpdf/pdfjs$': '<rootDir>/node_modules/unpdf/dist/pdfjs.mjs',
  },
  setupFiles: ['<rootDir>/test/support/jest-env.ts'],
  // dist/ is built once, before the workers start (test/support/global-setup.js).
  globalSetup: '<rootDir>/test/support/global-setup.js',
  testTimeout: 30000,
  // Three workers on the two cores (decisions.md 10.14): with two, the cores idled while drills
  // waited on their spawned processes and timers; with three they stay busy. Measured on a full run:
  // jest 957 s with two workers, 576 s with three; the fresh-clone CI run 1,088 → 637 s.
  maxWorkers: 3,
  // The journey SIGKILL drill starts first, also on a fresh clone with no recorded timings.
  testSequencer: '<rootDir>/test/support/drill-first-sequencer.js',
  // Keeps V8's code cache of every module a worker compiled, for the worker's next test files.
  runtime: '<rootDir>/test/support/code-cache-runtime.js',
  // A worker that grew past this after a test file is replaced by a fresh one. Without it, what
  // 240 files leave behind (each builds the whole app; a few apps and their pollers outlive their
  // file) grew each worker to 4.5 GB and slowed later files' setup past the hook timeout.
  workerIdleMemoryLimit: '1200MB',
};
