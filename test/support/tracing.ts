// Import this first in a test file that inspects spans. It starts tracing in this jest worker
// with an in-memory exporter, then applies the instrumentations' patches by hand: jest loads
// node_modules through its own module registry, which the SDK's require hooks never see, so
// without this only http would be instrumented. The patches change prototypes (pg's Client,
// ioredis' Redis, Express' Router), so modules loaded earlier in this file are covered too.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { InstrumentationModuleDefinition } from '@opentelemetry/instrumentation';
import { InMemorySpanExporter, ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startTracing, stopTracing } from '@outreach/telemetry';

export const spanExporter = new InMemorySpanExporter();

const tracing = startTracing({ serviceName: 'outreach-test', spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
if (!tracing) throw new Error('tracing did not start');

function packageVersion(name: string): string {
  if (name === 'http' || name === 'https') return process.versions.node;
  let dir = dirname(require.resolve(name));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (pkg.name === name) return pkg.version;
    } catch {
      // no package.json here: go up
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json for ${name}`);
    dir = up;
  }
}

const wrapped = (fn: unknown) => typeof fn === 'function' && '__wrapped' in fn;

function patchForJest(def: InstrumentationModuleDefinition): void {
  const version = packageVersion(def.name);
  const exports = require(def.name);
  // http is loaded by jest itself through Node's require, which the SDK did hook.
  const alreadyPatched = (def.name === 'http' || def.name === 'https') && wrapped(exports.Server?.prototype?.emit);
  if (!alreadyPatched && def.patch) def.moduleExports = def.patch(exports, version) ?? exports;
  for (const file of def.files ?? []) {
    if (file.name.includes('/native/')) continue; // pg-native is not installed
    file.patch(require(file.name), version);
  }
}

for (const instrumentation of tracing.instrumentations) {
  for (const def of instrumentation.getModuleDefinitions()) patchForJest(def);
}

/**
 * Stops tracing and takes the patches off again: core modules (http) are shared by every test
 * file this jest worker runs next.
 */
export async function stopTestTracing(): Promise<void> {
  for (const instrumentation of tracing!.instrumentations) {
    instrumentation.disable();
    for (const def of instrumentation.getModuleDefinitions()) {
      const exports = require(def.name);
      if (def.name !== 'http' && def.name !== 'https') def.unpatch?.(exports);
      for (const file of def.files ?? []) if (!file.name.includes('/native/')) file.unpatch(require(file.name));
    }
  }
  await stopTracing();
}

/** Every span finished so far. */
export function finishedSpans(): ReadableSpan[] {
  return spanExporter.getFinishedSpans();
}
