// Tracing (@outreach/telemetry): the OpenTelemetry bootstrap each app loads before anything else,
// and the trace-context helpers the platform uses (outbox → job, log lines). Imports no framework,
// so an app's instrument.ts can load it before Nest, Express, pg or ioredis.
export * from './tracing';
export * from './trace-context';
