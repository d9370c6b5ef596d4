import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Res, StreamableFile } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiProperty,
  ApiTags,
} from '@nestjs/swagger';
import { AppError, CurrentPrincipal, Principal, RequireScope } from '@outreach/platform';
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

@ApiTags('agents')
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
  @ApiCreatedResponse({ type: AgentResponse })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateAgentDto): Promise<AgentView> {
    return this.createAgent.execute(p.workspaceId, plain(body));
  }

  @RequireScope('agents.view')
  @Get(['agents', 'v1/agents'])
  @ApiOkResponse({ type: AgentResponse, isArray: true })
  list(@CurrentPrincipal() p: Principal): Promise<AgentView[]> {
    return this.queries.list(p.workspaceId);
  }

  @RequireScope('agents.view')
  @Get(['agents/:id', 'v1/agents/:id'])
  @ApiOkResponse({ type: AgentResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<AgentView> {
    return this.queries.get(p.workspaceId, id);
  }

  @RequireScope('agents.edit')
  @Patch('agents/:id')
  @ApiOkResponse({ type: AgentResponse })
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateAgentDto): Promise<AgentView> {
    return this.updateAgent.execute(p.workspaceId, id, plain(body));
  }

  @RequireScope('agents.edit')
  @Delete('agents/:id')
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
  @ApiForbiddenResponse({ description: 'prompt_access_forbidden: not available to API keys' })
  compiledPrompt(): never {
    throw new AppError('prompt_access_forbidden', { message: 'the compiled prompt is not available to API keys' });
  }
}

@ApiTags('agents')
@Controller()
export class VoicesController {
  constructor(private readonly library: VoiceLibrary) {}

  @RequireScope('agents.view')
  @Get('voices')
  @ApiOkResponse({ type: VoiceResponse, isArray: true })
  voices(): VoiceResponse[] {
    return this.library.voices();
  }

  @RequireScope('agents.view')
  @Get('voices/:id/preview')
  @ApiOkResponse({ description: 'A short audio sample (audio/wav)' })
  async preview(@Param('id') id: string): Promise<StreamableFile> {
    const { contentType, audio } = await this.library.preview(id);
    return new StreamableFile(audio, { type: contentType, length: audio.length });
  }

  @RequireScope('agents.view')
  @Get('background-audio')
  @ApiOkResponse({ type: BackgroundAudioResponse, isArray: true })
  backgroundAudio(): BackgroundAudioResponse[] {
    return this.library.backgroundAudio();
  }
}
