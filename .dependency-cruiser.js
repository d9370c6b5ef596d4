// Dependency rules of the modular monolith (STYLE.md §3, DESIGN.md §2), checked by
// `npm run depcruise` (part of `npm test` and so of .ci/run). Every rule is an error.
//
// Public entry points: libs/<module>/src/index.ts for every module, and
// libs/core/src/index.ts is the framework-free kernel (@outreach/core) that domain code may use.
const PUBLIC_ENTRY = '^libs/[^/]+/src/index\\.ts$';
// A module's in-memory fakes (libs/<module>/src/testing/index.ts): for specs and other fakes only.
const TESTING_ENTRY = '^libs/[^/]+/src/testing/index\\.ts$';
const SPEC_OR_TESTING = '\\.spec\\.ts$|^libs/[^/]+/src/testing/';
// Resolved paths of the frameworks domain/ may not touch (their @types too).
const FRAMEWORKS = '(^|/)node_modules/(@types/)?(@nestjs/[^/]+|typeorm|bullmq|ioredis|express|pg)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-no-frameworks',
      severity: 'error',
      comment: 'domain/ is plain TypeScript: no Nest, TypeORM, BullMQ, ioredis, Express or pg.',
      from: { path: '^libs/[^/]+/src/domain/' },
      to: { path: FRAMEWORKS },
    },
    {
      name: 'domain-inward-only',
      severity: 'error',
      comment: "domain/ may not import its module's application/, infrastructure/ or http/ (nor the module file).",
      from: { path: '^libs/([^/]+)/src/domain/' },
      to: { path: '^libs/$1/src/(application|infrastructure|http)/|^libs/$1/src/[^/]+\\.module\\.ts$' },
    },
    {
      name: 'domain-only-kernel',
      severity: 'error',
      comment: 'domain/ uses no other module: only its own domain/ and the framework-free kernel @outreach/core.',
      from: { path: '^libs/([^/]+)/src/domain/' },
      to: { path: '^libs/', pathNot: '^libs/$1/src/domain/|^libs/core/src/' },
    },
    {
      name: 'application-not-outward',
      severity: 'error',
      comment: "application/ may not import its module's http/ or infrastructure/: it declares ports instead.",
      from: { path: '^libs/([^/]+)/src/application/' },
      to: { path: '^libs/$1/src/(infrastructure|http)/' },
    },
    {
      name: 'lib-through-public-entry',
      severity: 'error',
      comment: "A lib uses another lib only through '@outreach/<module>' (its src/index.ts) (the kernel is '@outreach/core').",
      from: { path: '^libs/([^/]+)/', pathNot: SPEC_OR_TESTING },
      to: { path: '^libs/', pathNot: ['^libs/$1/', PUBLIC_ENTRY] },
    },
    {
      name: 'tests-through-public-entries',
      severity: 'error',
      comment: "Specs and fakes use another lib through its index.ts or its testing/index.ts only.",
      from: { path: '^libs/([^/]+)/src/(testing/|.*\\.spec\\.ts$)' },
      to: { path: '^libs/', pathNot: ['^libs/$1/', PUBLIC_ENTRY, TESTING_ENTRY] },
    },
    {
      name: 'testing-only-in-tests',
      severity: 'error',
      comment: 'Fakes (testing/) are for specs and other fakes, never for production code.',
      from: { path: '^(apps|libs)/', pathNot: SPEC_OR_TESTING },
      to: { path: '^libs/[^/]+/src/testing/' },
    },
    {
      name: 'lib-not-to-app',
      severity: 'error',
      comment: 'Libraries never depend on the apps that assemble them.',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'app-through-public-entry',
      severity: 'error',
      comment: "Apps use libs only through '@outreach/<module>' (the kernel is '@outreach/core').",
      from: { path: '^apps/' },
      to: { path: '^libs/', pathNot: PUBLIC_ENTRY },
    },
    {
      name: 'app-not-to-other-app',
      severity: 'error',
      comment: 'An app may import its own files and apps/common, never another app.',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/($1|common)/' },
    },
    {
      name: 'no-circular-libs',
      severity: 'error',
      comment: 'Modules form a DAG: if two modules need each other, one of them needs a port.',
      scope: 'folder',
      from: { path: '^libs/[^/]+/src$' },
      to: { path: '^libs/[^/]+/src$', circular: true },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles between files either (type-only imports exempt).',
      from: { path: '^(apps|libs)/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|coverage)/' },
    // Type-only imports count too: `import type { Request } from 'express'` in domain/ is a violation.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
    skipAnalysisNotInRules: true,
    cache: false,
  },
};
