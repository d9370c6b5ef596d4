import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsString, IsUUID, Length, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { CHATBOT_STATUSES, ChatbotStatus } from '../domain/chatbot';
import { DICTIONARY_KINDS, DictionaryKind } from '../domain/dictionary';
import { DOCUMENT_STATUSES, DOCUMENT_TYPES } from '../domain/document';
import { MAX_PASSAGES } from '../application/knowledge-bases';

/** The member may be absent; when present it must pass the other decorators (null is refused). */
const Optional = () => ValidateIf((_object, value) => value !== undefined);
/** The member may be absent or null. */
const Nullable = () => ValidateIf((_object, value) => value !== undefined && value !== null);

/** Knowledge bases one chatbot answers from, documents one request adds, entries of a dictionary. */
export const MAX_CHATBOT_KNOWLEDGE_BASES = 20;
export const MAX_KB_DOCUMENTS_PER_REQUEST = 100;
export const MAX_DICTIONARY_ENTRIES = 500;
export const MAX_CHATBOT_MESSAGE_CHARS = 4000;

// ---- documents -------------------------------------------------------------------------------

export class CreateDocumentDto {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'refund-policy.pdf', description: 'The file to come: .pdf, .txt, .md or .docx (else 415 unsupported_document_type)' })
  @IsString()
  @Length(1, 255)
  fileName: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 200, description: 'Display name (default: the file name)' })
  @Optional()
  @IsString()
  @Length(1, 200)
  name?: string;
}

export class DocumentFileDto {
  @ApiProperty({ type: 'string', format: 'binary', description: 'The document: PDF, TXT, Markdown or DOCX, at most DOCUMENT_MAX_BYTES' })
  file: unknown;
}

export class DocumentResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() fileName: string;
  @ApiProperty({ enum: DOCUMENT_TYPES }) type: string;
  @ApiProperty({ type: 'integer', nullable: true }) sizeBytes: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Key of the stored file; null until the upload (PUT /documents/{id}/file) completed' })
  externalId: string | null;
  @ApiProperty({ enum: DOCUMENT_STATUSES, description: 'AWAITING_UPLOAD → UPLOADED → (provision) PROCESSING → READY | FAILED' })
  status: string;
  @ApiProperty({ type: 'integer', description: 'Chunks the ingestion produced (searchable)' }) chunkCount: number;
  @ApiProperty({ type: String, nullable: true, description: 'Why ingestion FAILED' }) error: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: Date;
  @ApiProperty({ format: 'date-time' }) updatedAt: Date;
}

export class DocumentListResponse {
  @ApiProperty({ type: [DocumentResponse] }) documents: DocumentResponse[];
}

// ---- knowledge bases -------------------------------------------------------------------------

export class CreateKnowledgeBaseDto {
  @ApiProperty({ minLength: 1, maxLength: 200 }) @IsString() @Length(1, 200) name: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000 }) @Nullable() @IsString() @MaxLength(2000) description?: string | null;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_KB_DOCUMENTS_PER_REQUEST, description: 'Provisioned documents (404 kb_document_not_found, 400 document_not_provisioned)' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_KB_DOCUMENTS_PER_REQUEST)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  documentIds?: string[];
}

export class UpdateKnowledgeBaseDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 }) @Optional() @IsString() @Length(1, 200) name?: string;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000 }) @Nullable() @IsString() @MaxLength(2000) description?: string | null;
}

export class AddKbDocumentDto {
  @ApiProperty({ minLength: 1, maxLength: 64, description: 'A provisioned document of the workspace' }) @IsString() @Length(1, 64) documentId: string;
}

export class KnowledgeBaseResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: [DocumentResponse] }) documents: DocumentResponse[];
  @ApiProperty({ format: 'date-time' }) createdAt: Date;
  @ApiProperty({ format: 'date-time' }) updatedAt: Date;
}

export class KnowledgeBaseListResponse {
  @ApiProperty({ type: [KnowledgeBaseResponse] }) knowledgeBases: KnowledgeBaseResponse[];
}

export class KnowledgeQueryDto {
  @ApiProperty({ minLength: 1, maxLength: 1000, example: 'How long do refunds take?' }) @IsString() @Length(1, 1000) query: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PASSAGES, default: 5 }) @Optional() @IsInt() @Min(1) @Max(MAX_PASSAGES) limit?: number;
}

export class PassageResponse {
  @ApiProperty({ format: 'uuid' }) documentId: string;
  @ApiProperty() documentName: string;
  @ApiProperty({ type: 'integer', description: "The chunk's place in its document (from 1)" }) seq: number;
  @ApiProperty() content: string;
  @ApiProperty({ description: 'Full-text rank (higher is better)' }) score: number;
}

export class KnowledgeQueryResponse {
  @ApiProperty({ type: [PassageResponse] }) passages: PassageResponse[];
}

// ---- chatbots --------------------------------------------------------------------------------

export class ChatbotBodyDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 4000, description: 'Added to the system prompt' })
  @Nullable()
  @IsString()
  @MaxLength(4000)
  instructions?: string | null;

  @ApiPropertyOptional({ enum: CHATBOT_STATUSES, default: 'ACTIVE', description: 'An ACTIVE chatbot answers and holds its knowledge bases (409 knowledge_base_in_use)' })
  @Optional()
  @IsIn(CHATBOT_STATUSES)
  status?: ChatbotStatus;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_CHATBOT_KNOWLEDGE_BASES, description: 'Knowledge bases it answers from (404 knowledge_base_not_found)' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_CHATBOT_KNOWLEDGE_BASES)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  knowledgeBaseIds?: string[];
}

export class CreateChatbotDto extends ChatbotBodyDto {
  @ApiProperty({ minLength: 1, maxLength: 200 }) @IsString() @Length(1, 200) name: string;
}

export class UpdateChatbotDto extends ChatbotBodyDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 }) @Optional() @IsString() @Length(1, 200) name?: string;
}

export class RotateEmbedKeyDto {
  @ApiPropertyOptional({ minimum: 1, description: 'The key version being replaced (compare-and-swap); another rotation from the same version wins → 409 rotation_conflict' })
  @Optional()
  @IsInt()
  @Min(1)
  fromVersion?: number;
}

export class ChatbotResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) instructions: string | null;
  @ApiProperty({ enum: CHATBOT_STATUSES }) status: string;
  @ApiProperty({ type: [String] }) knowledgeBaseIds: string[];
  @ApiProperty({ description: 'The key a website sends as X-Embed-Key to POST /embed/chat' }) embedKey: string;
  @ApiProperty({ type: 'integer', description: '1 at creation, +1 per rotation' }) embedKeyVersion: number;
  @ApiProperty({ format: 'date-time' }) createdAt: Date;
  @ApiProperty({ format: 'date-time' }) updatedAt: Date;
}

export class ChatbotListResponse {
  @ApiProperty({ type: [ChatbotResponse] }) chatbots: ChatbotResponse[];
}

export class ChatbotMessageDto {
  @ApiProperty({ maxLength: MAX_CHATBOT_MESSAGE_CHARS, description: 'The question (blank: 400 empty_message)' })
  @IsString()
  @MaxLength(MAX_CHATBOT_MESSAGE_CHARS)
  message: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Continue a session (404 session_not_found when it is not this chatbot’s)' })
  @Optional()
  @IsUUID()
  sessionId?: string;
}

export class ChatbotAnswerResponse {
  @ApiProperty({ format: 'uuid' }) sessionId: string;
  @ApiProperty() answer: string;
  @ApiProperty({ type: [PassageResponse], description: 'The passages the answer was grounded in' }) sources: PassageResponse[];
}

// ---- dictionaries ----------------------------------------------------------------------------

export class DictionaryEntryDto {
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsString() @Length(1, 100) term: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 200, description: 'How to say it (required in a pronunciation dictionary)' })
  @Optional()
  @IsString()
  @Length(1, 200)
  pronunciation?: string;
}

export class CreateDictionaryDto {
  @ApiProperty({ minLength: 1, maxLength: 200 }) @IsString() @Length(1, 200) name: string;
  @ApiProperty({ enum: DICTIONARY_KINDS }) @IsIn(DICTIONARY_KINDS) kind: DictionaryKind;

  @ApiProperty({ type: [DictionaryEntryDto], maxItems: MAX_DICTIONARY_ENTRIES })
  @IsArray()
  @ArrayMaxSize(MAX_DICTIONARY_ENTRIES)
  @ValidateNested({ each: true })
  @Type(() => DictionaryEntryDto)
  entries: DictionaryEntryDto[];
}

export class UpdateDictionaryDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 }) @Optional() @IsString() @Length(1, 200) name?: string;

  @ApiPropertyOptional({ type: [DictionaryEntryDto], maxItems: MAX_DICTIONARY_ENTRIES })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_DICTIONARY_ENTRIES)
  @ValidateNested({ each: true })
  @Type(() => DictionaryEntryDto)
  entries?: DictionaryEntryDto[];
}

export class DictionaryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: DICTIONARY_KINDS }) kind: string;
  @ApiProperty({ type: [DictionaryEntryDto] }) entries: DictionaryEntryDto[];
  @ApiProperty({ format: 'date-time' }) createdAt: Date;
  @ApiProperty({ format: 'date-time' }) updatedAt: Date;
}

export class DictionaryListResponse {
  @ApiProperty({ type: [DictionaryResponse] }) dictionaries: DictionaryResponse[];
}

/** Dictionaries one agent uses. */
export const MAX_AGENT_DICTIONARIES = 10;

export class SetAgentDictionariesDto {
  @ApiProperty({ type: [String], maxItems: MAX_AGENT_DICTIONARIES, description: 'Dictionaries of the workspace, in the order the prompt lists them (replaces the list; 404 dictionary_not_found)' })
  @IsArray()
  @ArrayMaxSize(MAX_AGENT_DICTIONARIES)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  dictionaryIds: string[];
}
