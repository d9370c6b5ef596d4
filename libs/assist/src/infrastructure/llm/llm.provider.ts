import { Provider } from '@nestjs/common';
import { AppConfig } from '@outreach/platform';
import { Llm } from '../../application/llm/llm.port';
import { OpenAiCompatibleLlm } from './openai-compatible-llm';
import { SandboxLlm } from './sandbox-llm';

/**
 * The Llm the service's ANALYSIS_* keys describe (the calls module's, decisions.md 32.2): the
 * sandbox by default, the OpenAI-compatible client with ANALYSIS_PROVIDER=openai.
 */
export const LLM_PROVIDER: Provider = {
  provide: Llm,
  inject: [AppConfig],
  useFactory: (config: AppConfig): Llm =>
    config.analysisProvider === 'openai'
      ? new OpenAiCompatibleLlm({
          baseUrl: config.analysisBaseUrl,
          apiKey: config.analysisApiKey ?? '',
          model: config.analysisModel,
          timeoutMs: config.analysisTimeoutMs,
          embeddingModel: config.analysisEmbeddingModel,
        })
      : new SandboxLlm(),
};
