import { Module } from '@nestjs/common';
import { AgentsCoreModule } from '@outreach/agents';
import { CallsServicesModule } from '@outreach/calls';
import { CampaignsCoreModule, OptionalFileUploadInterceptor } from '@outreach/campaigns';
import { CampaignDrafts, CampaignFigureSource, ChatSessions, SpeechTranslations } from './application/assist.ports';
import { DraftCampaignFromBrief, PdfTextReader } from './application/briefs/draft-campaign-from-brief.use-case';
import { CampaignChat } from './application/chat/campaign-chat';
import { SpeechCalls } from './application/speech/speech-calls';
import { SuggestMetricPrompt } from './application/suggestions/suggest-metric-prompt.use-case';
import { CampaignAssistController } from './http/campaign-assist.controller';
import { CampaignChatController } from './http/campaign-chat.controller';
import { SpeechCallsController } from './http/speech-calls.controller';
import { CampaignEditingDrafts, ReadPortCampaignFigures } from './infrastructure/adapters/campaign-adapters';
import { UnpdfTextReader } from './infrastructure/adapters/unpdf-text-reader';
import { LLM_PROVIDER } from './infrastructure/llm/llm.provider';
import { SqlChatSessions } from './infrastructure/persistence/sql-chat-sessions';
import { SqlSpeechTranslations } from './infrastructure/persistence/sql-speech-translations';

const useCases = [DraftCampaignFromBrief, SuggestMetricPrompt, CampaignChat, SpeechCalls];

/**
 * AI assist without controllers: the Llm port (sandbox or OpenAI-compatible, per ANALYSIS_PROVIDER),
 * briefs, metric-prompt suggestions, campaign chat and speech calls, over the campaigns, calls and
 * agents modules' public services.
 */
@Module({
  imports: [CampaignsCoreModule, CallsServicesModule, AgentsCoreModule],
  providers: [
    ...useCases,
    LLM_PROVIDER,
    { provide: PdfTextReader, useClass: UnpdfTextReader },
    { provide: CampaignDrafts, useClass: CampaignEditingDrafts },
    { provide: CampaignFigureSource, useClass: ReadPortCampaignFigures },
    { provide: ChatSessions, useClass: SqlChatSessions },
    { provide: SpeechTranslations, useClass: SqlSpeechTranslations },
  ],
  exports: [...useCases, LLM_PROVIDER, PdfTextReader],
})
export class AssistCoreModule {}

/** The HTTP face: POST /campaigns/from-brief, /campaigns/suggest-metric-prompt, campaign chat, /speech/calls. */
@Module({
  imports: [AssistCoreModule],
  controllers: [CampaignAssistController, CampaignChatController, SpeechCallsController],
  providers: [OptionalFileUploadInterceptor],
})
export class AssistModule {}
