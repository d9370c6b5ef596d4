import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Raises, RequireScope } from '@outreach/platform';
import { Dictionaries, DictionaryView } from '../application/dictionaries';
import { CreateDictionaryDto, DictionaryListResponse, DictionaryResponse, SetAgentDictionariesDto, UpdateDictionaryDto } from './knowledge.dto';

/** Workspace term lists agents use (decisions.md 39.10): scopes agents.*, no feature flag. */
@Controller('dictionaries')
export class DictionariesController {
  constructor(private readonly dictionaries: Dictionaries) {}

  @RequireScope('agents.edit')
  @Post()
  @ApiOperation({ summary: 'Create a dictionary: pronunciations (term → how to say it) or key terms' })
  @ApiCreatedResponse({ type: DictionaryResponse })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateDictionaryDto): Promise<DictionaryView> {
    return this.dictionaries.create(p.workspaceId, body);
  }

  @RequireScope('agents.view')
  @Get()
  @ApiOperation({ summary: "The workspace's dictionaries (unpaginated)" })
  @ApiOkResponse({ type: DictionaryListResponse })
  async list(@CurrentPrincipal() p: Principal): Promise<DictionaryListResponse> {
    return { dictionaries: await this.dictionaries.list(p.workspaceId) };
  }

  @RequireScope('agents.view')
  @Get(':id')
  @Raises('dictionary_not_found')
  @ApiOperation({ summary: 'One dictionary' })
  @ApiOkResponse({ type: DictionaryResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<DictionaryView> {
    return this.dictionaries.get(p.workspaceId, id);
  }

  @RequireScope('agents.edit')
  @Patch(':id')
  @Raises('dictionary_not_found', 'no_fields_to_update')
  @ApiOperation({ summary: 'Rename a dictionary or replace its entries' })
  @ApiOkResponse({ type: DictionaryResponse })
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateDictionaryDto): Promise<DictionaryView> {
    return this.dictionaries.update(p.workspaceId, id, body);
  }

  @RequireScope('agents.edit')
  @Delete(':id')
  @HttpCode(204)
  @Raises('dictionary_not_found')
  @ApiOperation({ summary: 'Delete a dictionary' })
  @ApiNoContentResponse()
  async delete(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.dictionaries.delete(p.workspaceId, id);
  }
}

/** The dictionaries an agent uses: their terms go into its compiled prompt (decisions.md 39.10). */
@Controller('agents')
export class AgentDictionariesController {
  constructor(private readonly dictionaries: Dictionaries) {}

  @RequireScope('agents.view')
  @Get(':id/dictionaries')
  @Raises('not_found')
  @ApiOperation({ summary: "The agent's dictionaries, in order" })
  @ApiOkResponse({ type: DictionaryListResponse })
  async list(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<DictionaryListResponse> {
    return { dictionaries: await this.dictionaries.forAgent(p.workspaceId, id) };
  }

  @RequireScope('agents.edit')
  @Put(':id/dictionaries')
  @Raises('not_found', 'dictionary_not_found')
  @ApiOperation({ summary: "Replace the agent's dictionaries: pronunciations and key terms join its compiled prompt" })
  @ApiOkResponse({ type: DictionaryListResponse })
  async set(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: SetAgentDictionariesDto): Promise<DictionaryListResponse> {
    return { dictionaries: await this.dictionaries.setForAgent(p.workspaceId, id, body.dictionaryIds) };
  }
}
