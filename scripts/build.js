#!/usr/bin/env node
// `npm run build`: swc compiles apps/ and libs/ into dist/, then writes dist/.build-stamp. The
// stamp's mtime is the moment the build *started*, so a source saved while swc was running still
// counts as newer than the build. The operator launcher (bin/outreach-operator.js) compares source
// mtimes against that stamp to decide whether it must rebuild before running a command.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
/** What swc compiles, relative to the project root: a change under these calls for a rebuild. */
const SOURCE_DIRS = ['apps', 'libs'];
/** Build settings: a change here calls for a rebuild too. */
const SOURCE_FILES = ['.swcrc'];
const STAMP = path.join('dist', '.build-stamp');

/** Runs swc, then writes the stamp. Throws when swc fails (its own output went to stderr). */
function build(root = ROOT, { stdio = 'inherit' } = {}) {
  const started = new Date();
  const swc = path.join(root, 'node_modules', '@swc', 'cli', 'bin', 'swc.js');
  const result = spawnSync(process.execPath, [swc, ...SOURCE_DIRS, '-d', 'dist', '--config-file', '.swcrc', '-q'], {
    cwd: root,
    stdio,
  });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`swc exited with ${result.signal ?? `code ${result.status}`}`);
  writeStamp(root, started);
}

function writeStamp(root, started) {
  const stamp = path.join(root, STAMP);
  fs.writeFileSync(stamp, `built from ${SOURCE_DIRS.join(', ')} at ${started.toISOString()}\n`);
  fs.utimesSync(stamp, started, started);
}

/**
 * Why dist/ is out of date, or null when it is not: no stamp yet, or the first file under
 * SOURCE_DIRS (or SOURCE_FILES) modified after the last build started. Only mtimes are read (one
 * stat per file, a few milliseconds for the whole tree); a deleted source does not count, since
 * swc never removes what it once wrote either.
 */
function staleReason(root = ROOT) {
  let builtAt;
  try {
    builtAt = fs.statSync(path.join(root, STAMP)).mtimeMs;
  } catch {
    return `${STAMP} is missing`;
  }
  for (const file of SOURCE_FILES) {
    const changed = newerThan(path.join(root, file), builtAt);
    if (changed) return `${path.relative(root, changed)} changed`;
  }
  for (const dir of SOURCE_DIRS) {
    const changed = newerThan(path.join(root, dir), builtAt);
    if (changed) return `${path.relative(root, changed)} changed`;
  }
  return null;
}

/** The first file at or below `target` modified after `time` (ms), or null. */
function newerThan(target, time) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return null;
  }
  if (!stat.isDirectory()) return stat.mtimeMs > time ? target : null;
  for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
    const found = newerThan(path.join(target, entry.name), time);
    if (found) return found;
  }
  return null;
}

/**
 * Rebuilds when dist/ is out of date; returns what it did. `log` hears one line before a rebuild.
 */
function ensureBuilt(root = ROOT, { log = () => undefined, rebuild = build } = {}) {
  const reason = staleReason(root);
  if (!reason) return { rebuilt: false };
  log(`rebuilding dist/ (${reason})`);
  rebuild(root, { stdio: ['ignore', 2, 2] }); // stdout carries only the command's answer
  return { rebuilt: true, reason };
}

module.exports = { build, ensureBuilt, staleReason, STAMP, SOURCE_DIRS, SOURCE_FILES };

if (require.main === module) {
  try {
    build();
  } catch (error) {
    process.stderr.write(`build failed: ${error.message}\n`);
    process.exit(1);
  }
}
