import { Provider } from '@nestjs/common';
import { AppConfig } from '@outreach/platform';
import { CallAnalyser } from '../../application/analysis/call-analyser.port';
import { OpenAiCallAnalyser } from './openai-call-analyser';
import { SandboxCallAnalyser } from './sandbox-call-analyser';

/** The CallAnalyser ANALYSIS_PROVIDER names: the sandbox by default, or the OpenAI-compatible client. */
export const CALL_ANALYSER_PROVIDER: Provider = {
  provide: CallAnalyser,
  inject: [AppConfig],
  useFactory: (config: AppConfig): CallAnalyser =>
    config.analysisProvider === 'openai'
      ? new OpenAiCallAnalyser({
          baseUrl: config.analysisBaseUrl,
          apiKey: config.analysisApiKey ?? '',
          model: config.analysisModel,
          timeoutMs: config.analysisTimeoutMs,
        })
      : new SandboxCallAnalyser(),
};
