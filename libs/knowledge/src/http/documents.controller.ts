import { Body, Controller, Delete, Get, HttpCode, Injectable, Param, Post, Put, Req, UseInterceptors } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiConsumes, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { SingleFileUploadInterceptor } from '@outreach/campaigns';
import { AppConfig, AppError, CurrentPrincipal, ErrorCode, Principal, Raises, RequireFeature, RequireScope } from '@outreach/platform';
import type { Request } from 'express';
import { Documents, DocumentView } from '../application/documents';
import { CreateDocumentDto, DocumentFileDto, DocumentListResponse, DocumentResponse } from './knowledge.dto';

/** The campaigns module's one-file upload, with the documents' limit: over DOCUMENT_MAX_BYTES is 413 document_too_large. */
@Injectable()
export class DocumentUploadInterceptor extends SingleFileUploadInterceptor {
  protected override sizeLimit(config: AppConfig): { bytes: number; code: ErrorCode } {
    return { bytes: config.documentMaxBytes, code: 'document_too_large' };
  }
}

/** Knowledge documents in two steps: create, upload the file, provision (decisions.md 39.4). */
@RequireFeature('knowledge')
@Controller('documents')
export class DocumentsController {
  constructor(private readonly documents: Documents) {}

  @RequireScope('documents.edit')
  @Post()
  @Raises('unsupported_document_type')
  @ApiOperation({
    summary: 'Create a document (step 1 of 3): its file comes next with PUT /documents/{id}/file',
    description: 'The type is read from fileName: .pdf, .txt, .md (.markdown) or .docx; anything else is 415 unsupported_document_type.',
  })
  @ApiCreatedResponse({ type: DocumentResponse })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateDocumentDto): Promise<DocumentView> {
    return this.documents.create(p.workspaceId, body);
  }

  @RequireScope('documents.edit')
  @Put(':id/file')
  @UseInterceptors(DocumentUploadInterceptor)
  @Raises(
    'document_not_found',
    'document_too_large',
    'empty_document',
    'unsupported_document_type',
    'document_storage_unavailable',
    'document_storage_failed',
    'invalid_request',
    'no_files',
    'file_required',
    'upload_error',
    'upload_failed',
  )
  @ApiOperation({
    summary: 'Upload the document’s file (step 2 of 3): multipart "file"; stored, externalId set, status UPLOADED',
    description:
      'Over DOCUMENT_MAX_BYTES is 413 document_too_large, an empty file 400 empty_document, another format 415 unsupported_document_type. ' +
      'A store that cannot be reached is 503 document_storage_unavailable, one that refuses the file 502 document_storage_failed; either way nothing changes. ' +
      'The file can be replaced until the document is provisioned (then 400 invalid_request).',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: DocumentFileDto })
  @ApiOkResponse({ type: DocumentResponse })
  upload(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Req() req: Request): Promise<DocumentView> {
    const file = req.file;
    if (!file) throw new AppError('file_required');
    return this.documents.upload(p.workspaceId, id, { buffer: file.buffer, fileName: file.originalname, mimeType: file.mimetype });
  }

  @RequireScope('documents.edit')
  @Post(':id/provision')
  @HttpCode(202)
  @Raises('document_not_found', 'no_external_id', 'document_ingest_unavailable')
  @ApiOperation({
    summary: 'Confirm the upload (step 3 of 3): the document is queued for ingestion (PROCESSING → READY | FAILED)',
    description:
      'Without an uploaded file: 400 no_external_id. When the processing queue cannot take work: 502 document_ingest_unavailable, nothing changes. ' +
      'A document already PROCESSING or READY is answered as it is; a FAILED one is queued again.',
  })
  @ApiAcceptedResponse({ type: DocumentResponse })
  provision(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<DocumentView> {
    return this.documents.provision(p.workspaceId, id);
  }

  @RequireScope('documents.view')
  @Get()
  @ApiOperation({ summary: "The workspace's documents (unpaginated)" })
  @ApiOkResponse({ type: DocumentListResponse })
  async list(@CurrentPrincipal() p: Principal): Promise<DocumentListResponse> {
    return { documents: await this.documents.list(p.workspaceId) };
  }

  @RequireScope('documents.view')
  @Get(':id')
  @Raises('document_not_found')
  @ApiOperation({ summary: 'One document' })
  @ApiOkResponse({ type: DocumentResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<DocumentView> {
    return this.documents.get(p.workspaceId, id);
  }

  @RequireScope('documents.edit')
  @Delete(':id')
  @HttpCode(204)
  @Raises('document_not_found')
  @ApiOperation({ summary: 'Delete a document, its chunks, its file and its places in knowledge bases' })
  @ApiNoContentResponse()
  async delete(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.documents.delete(p.workspaceId, id);
  }
}
