import { bullmqTelemetry, startTracing, tracingEnabled, tracingWanted } from './tracing';

describe('tracing switch', () => {
  it('is on when an OTLP endpoint is configured', () => {
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
  });

  it('is off without one, with an empty one, or with the SDK disabled', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
  });

  it('off, startTracing starts nothing and BullMQ gets no telemetry option', () => {
    expect(startTracing({ serviceName: 'outreach-test', env: {} })).toBeNull();
    expect(tracingEnabled()).toBe(false);
    expect(bullmqTelemetry()).toBeUndefined();
  });
});
