import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Raises, RequireScope } from '@outreach/platform';
import { CustomFunctions, FunctionView } from '../application/custom-functions';
import { CreateFunctionDto, FunctionResponse, UpdateFunctionDto } from './function-dtos';

/** Custom functions agents may call (unpaginated configuration list). */
@Controller('functions')
export class FunctionsController {
  constructor(private readonly functions: CustomFunctions) {}

  @RequireScope('functions.edit')
  @Post()
  @Raises('name_taken')
  @ApiOperation({ summary: 'Create a custom function (an HTTPS endpoint agents may call)' })
  @ApiCreatedResponse({ type: FunctionResponse })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateFunctionDto): Promise<FunctionView> {
    return this.functions.create(p.workspaceId, { ...body });
  }

  @RequireScope('functions.view')
  @Get()
  @ApiOperation({ summary: 'All custom functions of the workspace (unpaginated)' })
  @ApiOkResponse({ type: FunctionResponse, isArray: true })
  list(@CurrentPrincipal() p: Principal): Promise<FunctionView[]> {
    return this.functions.list(p.workspaceId);
  }

  @RequireScope('functions.view')
  @Get(':id')
  @Raises('function_not_found')
  @ApiOperation({ summary: 'One custom function' })
  @ApiOkResponse({ type: FunctionResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<FunctionView> {
    return this.functions.get(p.workspaceId, id);
  }

  @RequireScope('functions.edit')
  @Patch(':id')
  @Raises('no_fields_to_update', 'function_not_found', 'name_taken')
  @ApiOperation({ summary: 'Change some fields of a custom function (at least one)' })
  @ApiOkResponse({ type: FunctionResponse })
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateFunctionDto): Promise<FunctionView> {
    return this.functions.update(p.workspaceId, id, { ...body });
  }

  @RequireScope('functions.edit')
  @Delete(':id')
  @HttpCode(204)
  @Raises('function_not_found')
  @ApiOperation({ summary: 'Delete a custom function' })
  @ApiNoContentResponse()
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.functions.remove(p.workspaceId, id);
  }
}
