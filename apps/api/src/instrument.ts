// Loaded first by main.ts, before Nest, Express, pg or ioredis are required, so that the
// OpenTelemetry instrumentations can patch them. Does nothing (loads no SDK) unless
// OTEL_EXPORTER_OTLP_ENDPOINT is set.
import { startTracing, stopTracing } from '@outreach/telemetry';

if (startTracing({ serviceName: 'outreach-api' })) {
  // Flush the last spans on a stop request; Nest's own shutdown hooks do the rest.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void stopTracing());
}
