import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Raises, RequireFeature, RequireScope } from '@outreach/platform';
import { KnowledgeBases, KnowledgeBaseView } from '../application/knowledge-bases';
import {
  AddKbDocumentDto,
  CreateKnowledgeBaseDto,
  KnowledgeBaseListResponse,
  KnowledgeBaseResponse,
  KnowledgeQueryDto,
  KnowledgeQueryResponse,
  UpdateKnowledgeBaseDto,
} from './knowledge.dto';

/** Knowledge bases: groups of provisioned documents that chatbots answer from (decisions.md 39.6). */
@RequireFeature('knowledge')
@Controller('knowledge-bases')
export class KnowledgeBasesController {
  constructor(private readonly bases: KnowledgeBases) {}

  @RequireScope('documents.edit')
  @Post()
  @Raises('kb_document_not_found', 'document_not_provisioned')
  @ApiOperation({ summary: 'Create a knowledge base, optionally with documents' })
  @ApiCreatedResponse({ type: KnowledgeBaseResponse })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateKnowledgeBaseDto): Promise<KnowledgeBaseView> {
    return this.bases.create(p.workspaceId, body);
  }

  @RequireScope('documents.view')
  @Get()
  @ApiOperation({ summary: "The workspace's knowledge bases with their documents (unpaginated)" })
  @ApiOkResponse({ type: KnowledgeBaseListResponse })
  async list(@CurrentPrincipal() p: Principal): Promise<KnowledgeBaseListResponse> {
    return { knowledgeBases: await this.bases.list(p.workspaceId) };
  }

  @RequireScope('documents.view')
  @Get(':id')
  @Raises('knowledge_base_not_found')
  @ApiOperation({ summary: 'One knowledge base with its documents' })
  @ApiOkResponse({ type: KnowledgeBaseResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<KnowledgeBaseView> {
    return this.bases.get(p.workspaceId, id);
  }

  @RequireScope('documents.edit')
  @Patch(':id')
  @Raises('knowledge_base_not_found', 'no_fields_to_update')
  @ApiOperation({ summary: 'Rename or describe a knowledge base' })
  @ApiOkResponse({ type: KnowledgeBaseResponse })
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateKnowledgeBaseDto): Promise<KnowledgeBaseView> {
    return this.bases.update(p.workspaceId, id, body);
  }

  @RequireScope('documents.edit')
  @Delete(':id')
  @HttpCode(204)
  @Raises('knowledge_base_not_found', 'knowledge_base_in_use')
  @ApiOperation({ summary: 'Delete a knowledge base (409 knowledge_base_in_use while an ACTIVE chatbot answers from it)' })
  @ApiNoContentResponse()
  async delete(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.bases.delete(p.workspaceId, id);
  }

  @RequireScope('documents.edit')
  @Post(':id/documents')
  @HttpCode(200)
  @Raises('knowledge_base_not_found', 'kb_document_not_found', 'document_not_provisioned')
  @ApiOperation({ summary: 'Add a provisioned document (404 kb_document_not_found with docId, 400 document_not_provisioned)' })
  @ApiOkResponse({ type: KnowledgeBaseResponse })
  addDocument(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: AddKbDocumentDto): Promise<KnowledgeBaseView> {
    return this.bases.addDocument(p.workspaceId, id, body.documentId);
  }

  @RequireScope('documents.edit')
  @Delete(':id/documents/:docId')
  @Raises('knowledge_base_not_found', 'kb_document_not_found')
  @ApiOperation({ summary: 'Remove a document from the knowledge base (404 kb_document_not_found when it is not in it)' })
  @ApiOkResponse({ type: KnowledgeBaseResponse })
  removeDocument(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Param('docId') docId: string): Promise<KnowledgeBaseView> {
    return this.bases.removeDocument(p.workspaceId, id, docId);
  }

  @RequireScope('documents.view')
  @Post(':id/query')
  @HttpCode(200)
  @Raises('knowledge_base_not_found')
  @ApiOperation({ summary: "Retrieval: the passages of the knowledge base's documents that best match a question (PostgreSQL full-text search)" })
  @ApiOkResponse({ type: KnowledgeQueryResponse })
  async query(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: KnowledgeQueryDto): Promise<KnowledgeQueryResponse> {
    return { passages: await this.bases.query(p.workspaceId, [id], body.query, body.limit) };
  }
}
