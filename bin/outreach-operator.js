#!/usr/bin/env node
// The operator CLI's launcher (package.json "bin": outreach-operator; `npm run operator` runs it
// too). It runs the built CLI from dist/ in this same process, and rebuilds dist/ first only when
// a file under apps/ or libs/ is newer than the last build (scripts/build.js compares mtimes with
// dist/.build-stamp: a few milliseconds). A rebuild says so on stderr when stderr is a terminal;
// stdout carries only the command's answer either way.
'use strict';

const path = require('node:path');
const { ensureBuilt } = require('../scripts/build');

const root = path.resolve(__dirname, '..');

try {
  ensureBuilt(root, {
    log: (line) => {
      if (process.stderr.isTTY) process.stderr.write(`outreach-operator: ${line}\n`);
    },
  });
} catch (error) {
  process.stderr.write(`outreach-operator: the build failed (${error.message}); fix the error above and run again\n`);
  process.exit(3); // EXIT_FAILURE of apps/cli/src/cli-errors.ts
}

// No process.setSourceMapsEnabled here: Node would then read the source map of every module it
// loads, about 0.45 s of CPU per command (docs/decisions.md 10.7).
// main.js reads its command line from process.argv: [node, this file, command, ...options].
require(path.join(root, 'dist', 'apps', 'cli', 'src', 'main.js'));
