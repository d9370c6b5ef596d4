import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AnswerErrors, CurrentPrincipal, Principal, Raises, RequireScope } from '@outreach/platform';
import { DoNotCallList } from '../application/do-not-call-list';
import { AddDncDto, DncEntryResponse, DncListQueryDto, DncListResponse } from './dnc.dto';

@Controller('dnc')
export class DncController {
  constructor(private readonly dnc: DoNotCallList) {}

  @RequireScope('calls.view')
  @Get()
  @ApiOperation({ summary: 'The workspace do-not-call list, newest first' })
  @ApiOkResponse({ type: DncListResponse })
  list(@CurrentPrincipal() p: Principal, @Query() q: DncListQueryDto): Promise<DncListResponse> {
    return this.dnc.list(p.workspaceId, q.offset ?? 0, q.limit ?? 50);
  }

  @RequireScope('calls.edit')
  @Post()
  @AnswerErrors({ invalid_phone: 400 })
  @Raises('invalid_phone')
  @ApiOperation({ summary: 'Add a number (idempotent: a listed number keeps its one entry, answered again)' })
  @ApiCreatedResponse({ type: DncEntryResponse })
  async add(@CurrentPrincipal() p: Principal, @Body() body: AddDncDto): Promise<DncEntryResponse> {
    return (await this.dnc.add(p.workspaceId, body)).entry;
  }

  @RequireScope('calls.edit')
  @Delete(':phoneOrId')
  @HttpCode(204)
  @Raises('not_found')
  @ApiOperation({ summary: 'Remove a number, by entry id or phone number (URL-encode the "+" as %2B)' })
  @ApiNoContentResponse()
  async remove(@CurrentPrincipal() p: Principal, @Param('phoneOrId') phoneOrId: string): Promise<void> {
    await this.dnc.remove(p.workspaceId, phoneOrId);
  }
}
