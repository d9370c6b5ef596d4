// Jest's runtime with V8's code cache kept per jest worker (jest.config.js `runtime`).
//
// Jest runs every test file in a fresh module registry, so each file compiles every module it
// loads again: the API's modules, Nest, TypeORM, ajv… A profile of ten e2e files showed 19 % of the
// worker's CPU in that compilation (node:internal/vm), about 0.65 s per file, and jest has no
// option to keep V8's code between files. This runtime compiles a module as jest does, but hands
// V8 the code cache it produced the first time the worker compiled the same file with the same
// (transformed) source. A cache V8 rejects costs nothing but the normal compilation. What runs is
// unchanged: the same source, the same module wrapper parameters, the same context.
//
// It wraps the `compile(scriptSource, filename)` of jest-runtime's module executor (jest 30.x):
// should a jest upgrade drop or rename either, nothing is wrapped and jest compiles as before.
'use strict';

const { compileFunction } = require('node:vm');
const Runtime = require('jest-runtime').default;

/** filename → the source V8 compiled and the code cache it produced (per jest worker process). */
const kept = new Map();

/** jest's ModuleExecutor.compile, with a code cache (`executor` is the executor, `own` its compile). */
function compileWithCache(executor, own, scriptSource, filename) {
  const vmContext = executor.environment.getVmContext();
  if (vmContext == null || executor.resolution.isCoreModule(filename)) return own(scriptSource, filename);
  const entry = kept.get(filename);
  const cachedData = entry !== undefined && entry.source === scriptSource ? entry.data : undefined;
  let compiled;
  try {
    compiled = compileFunction(scriptSource, executor.injectedModuleParameters, {
      filename,
      cachedData,
      produceCachedData: cachedData === undefined,
      // As jest's compile (which first asserts that the VM supports ES modules).
      importModuleDynamically: async (specifier, _fn, importAttributes, phase) =>
        executor.dynamicImport(specifier, filename, vmContext, importAttributes, phase),
      parsingContext: vmContext,
    });
  } catch {
    // A syntax error and the like: jest's own compilation reports it its way.
    return own(scriptSource, filename);
  }
  if (cachedData === undefined && compiled.cachedData) kept.set(filename, { source: scriptSource, data: compiled.cachedData });
  return compiled;
}

class CodeCacheRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    const executor = this.executor;
    if (executor && typeof executor.compile === 'function' && typeof executor.dynamicImport === 'function') {
      const own = executor.compile.bind(executor);
      executor.compile = (scriptSource, filename) => compileWithCache(executor, own, scriptSource, filename);
    }
  }
}

module.exports = CodeCacheRuntime;
