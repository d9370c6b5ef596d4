// Public surface of the assist module: the language-model port and the AI assist features
// (campaign briefs, metric-prompt suggestions, campaign chat, speech calls).
import { defineMigrations } from '@outreach/platform';
export * from './assist.errors';
export * from './assist.config';
import { Assist1763700010110 } from './infrastructure/migrations/1763700010110-assist';

export { AssistCoreModule, AssistModule } from './assist.module';
export { isLlmError, Llm, LlmError, LlmFailureReason, LlmMessage, LlmOptions, LlmPurpose } from './application/llm/llm.port';
export { SandboxLlm, SANDBOX_LLM_MARKERS } from './infrastructure/llm/sandbox-llm';
export { OpenAiCompatibleLlm, OpenAiCompatibleLlmOptions } from './infrastructure/llm/openai-compatible-llm';
export { DraftCampaignFromBrief, BriefDraft, BriefInput, PdfTextReader } from './application/briefs/draft-campaign-from-brief.use-case';
export { SuggestMetricPrompt } from './application/suggestions/suggest-metric-prompt.use-case';
export { CampaignChat, groundingContext } from './application/chat/campaign-chat';
export { SpeechCalls, SpeechCallView } from './application/speech/speech-calls';
export const ASSIST_MIGRATIONS = defineMigrations('assist', [Assist1763700010110]);
