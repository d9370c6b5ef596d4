#!/usr/bin/env node
// The static checks `npm test` runs before jest, two at a time (this machine has two cores): tsc,
// the client build, eslint, the dependency rules and the OpenAPI lint. Each check's output is
// printed as one block when it ends, so two checks never interleave their lines. Exits non-zero
// when any check failed, after every check has run (one run shows every failure). Run in order,
// one after the other, they took 64 s of a CI run whose limit is 20 minutes.
'use strict';

const { spawn } = require('node:child_process');

/** npm scripts, longest first, so the two slots finish close together. */
const CHECKS = ['typecheck', 'lint', 'lint:openapi', 'depcruise', 'client:build'];
const PARALLEL = 2;

function run(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${script} (${seconds} s${ok ? '' : `, ${signal ?? `exit ${code}`}`})\n`);
      const text = Buffer.concat(output).toString();
      if (text.trim()) process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      resolve(ok);
    });
  });
}

async function main() {
  const queue = [...CHECKS];
  const results = [];
  const slot = async () => {
    for (let script = queue.shift(); script; script = queue.shift()) results.push(await run(script));
  };
  await Promise.all(Array.from({ length: PARALLEL }, slot));
  if (results.some((ok) => !ok)) process.exit(1);
}

main();
