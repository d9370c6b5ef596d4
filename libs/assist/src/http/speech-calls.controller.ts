import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Raises, RequireScope } from '@outreach/platform';
import { SpeechCalls, SpeechCallView } from '../application/speech/speech-calls';
import { ListSpeechCallsQuery, SpeechCallListResponse, SpeechCallResponse, TranslateTranscriptDto, TranslationResponse } from './assist.dto';

/** Speech calls: the speech-analysis view of the workspace's calls (transcripts, analysis, translations). */
@Controller('speech/calls')
export class SpeechCallsController {
  constructor(private readonly speech: SpeechCalls) {}

  @RequireScope('calls.view')
  @Get()
  @ApiOperation({ summary: 'The workspace calls as speech calls, newest first (offset/limit with total; filter campaignId)' })
  @ApiOkResponse({ type: SpeechCallListResponse })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListSpeechCallsQuery): Promise<{ items: SpeechCallView[]; total: number }> {
    return this.speech.list(p.workspaceId, { campaignId: q.campaignId }, { offset: q.offset ?? 0, limit: q.limit ?? 50 });
  }

  @RequireScope('calls.view')
  @Get(':id')
  @Raises('call_not_found')
  @ApiOperation({ summary: 'One speech call: transcript, analysis and translations (404 call_not_found)' })
  @ApiOkResponse({ type: SpeechCallResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<SpeechCallView> {
    return this.speech.get(p.workspaceId, id);
  }

  @RequireScope('calls.edit')
  @Post(':id/translate')
  @HttpCode(200)
  @Raises('call_not_found', 'no_transcript', 'provider_error')
  @ApiOperation({
    summary: 'Translate the transcript into a language (kept: asking again answers the stored translation)',
    description: '400 no_transcript when the call has none; 502 provider_error (with upstreamStatus) when the language model fails.',
  })
  @ApiOkResponse({ type: TranslationResponse })
  async translate(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: TranslateTranscriptDto): Promise<TranslationResponse> {
    const t = await this.speech.translate(p.workspaceId, id, body.language);
    return { callId: t.callId, language: t.language, text: t.text, createdAt: t.createdAt.toISOString() };
  }

  @RequireScope('calls.edit')
  @Post(':id/analyse')
  @HttpCode(200)
  @Raises('call_not_found', 'no_extraction_data', 'analysis_failed')
  @ApiOperation({
    summary: "Analyse the call now (extraction and evaluation, the calls module's analysis); an analysed call answers its analysis",
    description: '400 no_extraction_data: no transcript, the call has not ended, or nothing to extract; 502 analysis_failed (upstreamStatus) when the provider fails.',
  })
  @ApiOkResponse({ type: SpeechCallResponse })
  analyse(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<SpeechCallView> {
    return this.speech.analyse(p.workspaceId, id);
  }
}
