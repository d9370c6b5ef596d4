import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, RequireScope } from '@outreach/platform';
import { CustomFunctions, FunctionView } from '../application/custom-functions';
import { CreateFunctionDto, FunctionResponse, UpdateFunctionDto } from './function-dtos';

/** Custom functions agents may call (unpaginated configuration list). */
@ApiTags('functions')
@Controller('functions')
export class FunctionsController {
  constructor(private readonly functions: CustomFunctions) {}

  @RequireScope('functions.edit')
  @Post()
  @ApiCreatedResponse({ type: FunctionResponse })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateFunctionDto): Promise<FunctionView> {
    return this.functions.create(p.workspaceId, { ...body });
  }

  @RequireScope('functions.view')
  @Get()
  @ApiOkResponse({ type: FunctionResponse, isArray: true })
  list(@CurrentPrincipal() p: Principal): Promise<FunctionView[]> {
    return this.functions.list(p.workspaceId);
  }

  @RequireScope('functions.view')
  @Get(':id')
  @ApiOkResponse({ type: FunctionResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<FunctionView> {
    return this.functions.get(p.workspaceId, id);
  }

  @RequireScope('functions.edit')
  @Patch(':id')
  @ApiOkResponse({ type: FunctionResponse })
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateFunctionDto): Promise<FunctionView> {
    return this.functions.update(p.workspaceId, id, { ...body });
  }

  @RequireScope('functions.edit')
  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.functions.remove(p.workspaceId, id);
  }
}
