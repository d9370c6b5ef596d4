import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Res, StreamableFile } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
} from '@nestjs/swagger';
import { AppError, CurrentPrincipal, Principal, Raises, RequireScope } from '@outreach/platform';
import { IsIn, IsOptional } from 'class-validator';
import type { Response } from 'express';
import { AgentQueries } from '../application/agent-queries';
import { AgentView } from '../application/agent-view';
import { CreateAgent } from '../application/create-agent.use-case';
import { DeleteAgent } from '../application/delete-agent.use-case';
import { DuplicateAgent } from '../application/duplicate-agent.use-case';
import { UpdateAgent } from '../application/update-agent.use-case';
import { VoiceLibrary } from '../application/voice-library';
import { CreateAgentDto, UpdateAgentDto } from './agent-body.dto';
import { AgentResponse, BackgroundAudioResponse, VoiceResponse } from './agent.response';

export class DeleteAgentQuery {
  @ApiProperty({ required: false, enum: ['true', 'false'], description: 'true deletes for good (409 in_use while referenced); default archives' })
  @IsOptional() @IsIn(['true', 'false'])
  permanent?: 'true' | 'false';
}

/** DTO instances → plain data for the domain (nested DTO classes become plain objects). */
function plain<T>(dto: T): T {
  return JSON.parse(JSON.stringify(dto)) as T;
}

@Controller()
export class AgentsController {
  constructor(
    private readonly createAgent: CreateAgent,
    private readonly updateAgent: UpdateAgent,
    private readonly duplicateAgent: DuplicateAgent,
    private readonly deleteAgent: DeleteAgent,
    private readonly queries: AgentQueries,
  ) {}

  @RequireScope('agents.edit')
  @Post('agents')
  @Raises('prompt_required', 'invalid_transfer_number', 'transfer_number_required', 'background_audio_not_found', 'name_taken', 'agent_limit_reached', 'document_not_provisioned')
  @ApiOperation({ summary: 'Create an agent (PROVISIONING until its voice setup is done), within the agent quota' })
  @ApiCreatedResponse({ type: AgentResponse })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateAgentDto): Promise<AgentView> {
    return this.createAgent.execute(p.workspaceId, plain(body));
  }

  @RequireScope('agents.view')
  @Get(['agents', 'v1/agents'])
  @ApiOperation({ summary: 'All agents of the workspace (unpaginated)' })
  @ApiOkResponse({ type: AgentResponse, isArray: true })
  list(@CurrentPrincipal() p: Principal): Promise<AgentView[]> {
    return this.queries.list(p.workspaceId);
  }

  @RequireScope('agents.view')
  @Get(['agents/:id', 'v1/agents/:id'])
  @Raises('not_found')
  @ApiOperation({ summary: 'One agent' })
  @ApiOkResponse({ type: AgentResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<AgentView> {
    return this.queries.get(p.workspaceId, id);
  }

  @RequireScope('agents.edit')
  @Patch('agents/:id')
  @Raises('no_fields_to_update', 'not_found', 'agent_archived', 'prompt_required', 'invalid_transfer_number', 'transfer_number_required', 'background_audio_not_found', 'name_taken', 'document_not_provisioned')
  @ApiOperation({ summary: 'Change some fields of an agent (at least one)' })
  @ApiOkResponse({ type: AgentResponse })
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateAgentDto): Promise<AgentView> {
    return this.updateAgent.execute(p.workspaceId, id, plain(body));
  }

  @RequireScope('agents.edit')
  @Delete('agents/:id')
  @Raises('not_found', 'in_use')
  @ApiOperation({ summary: 'Archive an agent, or delete it for good with permanent=true (409 in_use while campaigns use it)' })
  @ApiOkResponse({ type: AgentResponse, description: 'Archived' })
  @ApiNoContentResponse({ description: 'Deleted (permanent=true)' })
  async remove(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Query() query: DeleteAgentQuery,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AgentView | void> {
    if (query.permanent === 'true') {
      await this.deleteAgent.deletePermanently(p.workspaceId, id);
      res.status(204);
      return;
    }
    return this.deleteAgent.archive(p.workspaceId, id);
  }

  @RequireScope('agents.edit')
  @Post('agents/:id/duplicate')
  @Raises('not_found', 'agent_limit_reached')
  @ApiOperation({ summary: 'Copy an agent as "<name> (copy)", within the agent quota' })
  @ApiCreatedResponse({ type: AgentResponse })
  duplicate(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<AgentView> {
    return this.duplicateAgent.execute(p.workspaceId, id);
  }

  /**
   * The assembled system prompt is the service's own text: API keys (the only HTTP principals)
   * never read it (decisions.md 11.9, 5.3). The service uses CompileAgentPrompt internally.
   */
  @RequireScope('agents.view')
  @Get('agents/:id/compiled-prompt')
  @Raises('prompt_access_forbidden')
  @ApiOperation({ summary: 'The assembled system prompt: never available to API keys (403 prompt_access_forbidden)' })
  compiledPrompt(): never {
    throw new AppError('prompt_access_forbidden', { message: 'the compiled prompt is not available to API keys' });
  }
}

@Controller()
export class VoicesController {
  constructor(private readonly library: VoiceLibrary) {}

  @RequireScope('agents.view')
  @Get('voices')
  @ApiOperation({ summary: 'The voice catalogue' })
  @ApiOkResponse({ type: VoiceResponse, isArray: true })
  voices(): VoiceResponse[] {
    return this.library.voices();
  }

  @RequireScope('agents.view')
  @Get('voices/:id/preview')
  @Raises('not_found', 'preview_not_supported')
  @ApiOperation({ summary: 'A short audio sample of a voice (501 preview_not_supported when the voice has none)' })
  @ApiOkResponse({ description: 'A short audio sample', content: { 'audio/wav': { schema: { type: 'string', format: 'binary' } } } })
  async preview(@Param('id') id: string): Promise<StreamableFile> {
    const { contentType, audio } = await this.library.preview(id);
    return new StreamableFile(audio, { type: contentType, length: audio.length });
  }

  @RequireScope('agents.view')
  @Get('background-audio')
  @ApiOperation({ summary: 'The background audio tracks agents may play' })
  @ApiOkResponse({ type: BackgroundAudioResponse, isArray: true })
  backgroundAudio(): BackgroundAudioResponse[] {
    return this.library.backgroundAudio();
  }
}
