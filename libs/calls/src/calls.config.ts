import { ConfigOf, defineConfig } from '@outreach/core';

/** The configuration keys the calls module owns (validated at boot with every other module's). */
export const CALLS_CONFIG = defineConfig('calls', (env) => {
  const values = {
    /** Which call analyser runs (ANALYSIS_PROVIDER): the deterministic sandbox or an OpenAI-compatible API. */
    analysisProvider: env.oneOf('ANALYSIS_PROVIDER', 'sandbox', ['sandbox', 'openai'] as const),
    /** Base URL of the OpenAI-compatible API, without /chat/completions (ANALYSIS_BASE_URL). */
    analysisBaseUrl: env.url('ANALYSIS_BASE_URL', 'https://api.openai.com/v1', ['http:', 'https:']).replace(/\/+$/, ''),
    /** Bearer key of that API (ANALYSIS_API_KEY); required when ANALYSIS_PROVIDER=openai. */
    analysisApiKey: env.optional('ANALYSIS_API_KEY'),
    /** Chat model asked for the analysis (ANALYSIS_MODEL). */
    analysisModel: env.str('ANALYSIS_MODEL', 'gpt-4o-mini'),
    /** Longest one analysis request may take (ANALYSIS_TIMEOUT_MS). */
    analysisTimeoutMs: env.int('ANALYSIS_TIMEOUT_MS', 30_000, 100, 600_000),
    /** Caller id of test calls placed without fromPhoneNumberId (SANDBOX_FROM_NUMBER, E.164); null = not configured. */
    sandboxFromNumber: env.optional('SANDBOX_FROM_NUMBER')?.trim() ?? null,
    /**
     * How long after it was placed a call that is over may keep its analysis PENDING before the
     * worker's sweep adds its analysis job again (CALL_ANALYSIS_IDLE_MS, default a minute; decisions.md
     * 37.17): what a job lost to a Redis flush waits. The job id makes an early add change nothing.
     */
    callAnalysisIdleMs: env.int('CALL_ANALYSIS_IDLE_MS', 60_000, 1_000, 86_400_000),
  };
  if (values.analysisProvider === 'openai' && values.analysisApiKey === null) {
    env.problem('ANALYSIS_API_KEY: required when ANALYSIS_PROVIDER=openai');
  }
  if (values.sandboxFromNumber !== null && !/^\+[1-9]\d{7,14}$/.test(values.sandboxFromNumber)) {
    env.problem(`SANDBOX_FROM_NUMBER=${JSON.stringify(values.sandboxFromNumber)}: expected an E.164 number such as +14155550100`);
  }
  return values;
});

declare module '@outreach/core' {
  interface ConfigValues extends ConfigOf<typeof CALLS_CONFIG> {}
}
