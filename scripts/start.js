#!/usr/bin/env node
// Local launcher for `npm start`: runs the API and the worker, built into dist/ by `npm run build`,
// as two child processes. Their output is prefixed line by line ([api] / [worker]); SIGINT and
// SIGTERM are forwarded so both shut down gracefully; if either dies on its own, the other is
// stopped and this process exits non-zero. Both apply pending migrations at boot, under a Postgres
// advisory lock, so starting them together is safe.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');

const root = path.resolve(__dirname, '..');
const FORCE_KILL_AFTER_MS = 20_000;

// The worker's heap is capped (docs/decisions.md 26.12): V8 otherwise grows it lazily towards its
// default limit while an export streams a million rows; capped, memory stays flat at no loss of speed.
const WORKER_HEAP_FLAG = '--max-old-space-size=256';

const processes = [
  { name: 'api', entry: 'dist/apps/api/src/main.js', color: 36, flags: [] },
  { name: 'worker', entry: 'dist/apps/worker/src/main.js', color: 35, flags: [WORKER_HEAP_FLAG] },
];

const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const width = Math.max(...processes.map((p) => p.name.length));

function label(proc) {
  const text = `[${proc.name}]`.padEnd(width + 2);
  return useColor ? `\x1b[${proc.color}m${text}\x1b[0m` : text;
}

function say(message) {
  process.stdout.write(`${useColor ? '\x1b[1m[start]\x1b[0m' : '[start]'} ${message}\n`);
}

for (const proc of processes) {
  if (!fs.existsSync(path.join(root, proc.entry))) {
    say(`${proc.entry} is missing: run \`npm run build\` first (\`npm start\` does).`);
    process.exit(1);
  }
}

let stopping = false;
let exitCode = 0;
let forceTimer = null;
const running = new Set();

// Once both have started, repeat the API's URLs below their start-up logs, where they are seen.
const READY = {
  api: /API listening on (\S+) \(docs: (\S+)\)/,
  worker: /Worker started/,
};
const ready = new Map();
let announced = false;

function watchReady(proc, line) {
  if (announced || ready.has(proc.name)) return;
  const match = READY[proc.name]?.exec(line);
  if (!match) return;
  ready.set(proc.name, match);
  if (ready.size < processes.length) return;
  announced = true;
  const [, apiUrl, docsUrl] = ready.get('api');
  setTimeout(() => {
    say(`ready: API ${apiUrl}, OpenAPI docs ${docsUrl}; worker running`);
    say(`a first request, from another terminal in this folder (README, "A first request"):\n${firstRequest(apiUrl)}`);
  }, 500).unref();
}

/** The three commands of the README's "A first request", for the API at `apiUrl`. */
function firstRequest(apiUrl) {
  const field = (name) => `node -pe 'JSON.parse(require("fs").readFileSync(0)).${name}'`;
  return [
    `WS=$(npm run --silent operator -- workspace:create --name Acme | ${field('workspace.id')})`,
    `KEY=$(npm run --silent operator -- key:create --workspace "$WS" --name "first key" --scopes all | ${field('key')})`,
    `curl -s ${apiUrl}/v1/workspace -H "Authorization: Bearer $KEY"`,
  ]
    .map((line) => `  ${line}`)
    .join('\n');
}

function pipe(stream, target, proc) {
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  lines.on('line', (line) => {
    target.write(`${label(proc)} ${line}\n`);
    watchReady(proc, line);
  });
}

function stopAll(signal) {
  if (!stopping) {
    stopping = true;
    forceTimer = setTimeout(() => {
      say(`still running after ${FORCE_KILL_AFTER_MS / 1000} s: killing`);
      for (const proc of running) proc.child.kill('SIGKILL');
    }, FORCE_KILL_AFTER_MS);
    forceTimer.unref();
  }
  for (const proc of running) proc.child.kill(signal);
}

for (const proc of processes) {
  // Own process group (detached): a terminal's Ctrl-C reaches only this launcher, which
  // forwards it once, instead of every process receiving it twice.
  const child = spawn(process.execPath, ['--enable-source-maps', ...proc.flags, proc.entry], {
    cwd: root,
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  proc.child = child;
  running.add(proc);
  pipe(child.stdout, process.stdout, proc);
  pipe(child.stderr, process.stderr, proc);

  child.on('error', (error) => {
    say(`${proc.name} could not start: ${error.message}`);
    exitCode = 1;
  });
  child.on('exit', (code, signal) => {
    running.delete(proc);
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (stopping) {
      say(`${proc.name} stopped (${how})`);
      if (code !== null && code !== 0) exitCode = exitCode || code;
    } else {
      say(`${proc.name} exited unexpectedly (${how}); stopping the others`);
      exitCode = code && code !== 0 ? code : 1;
      stopAll('SIGTERM');
    }
    if (running.size === 0) {
      if (forceTimer) clearTimeout(forceTimer);
      process.exit(exitCode);
    }
  });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) {
      say(`${signal} again: killing`);
      for (const proc of running) proc.child.kill('SIGKILL');
      return;
    }
    say(`${signal} received: stopping api and worker (again to force)`);
    stopAll(signal);
  });
}

// If this launcher dies without a signal handler running, do not leave orphans behind.
process.on('exit', () => {
  for (const proc of running) {
    try {
      proc.child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
});

say(`starting api and worker from dist/ (pid ${process.pid}); Ctrl-C stops both`);
