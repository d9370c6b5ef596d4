import { Module, OnModuleInit } from '@nestjs/common';
import { AgentKnowledge, AgentsCoreModule } from '@outreach/agents';
import { AssistCoreModule } from '@outreach/assist';
import { workerQueues } from '@outreach/platform';
import { Chatbots } from './application/chatbots';
import { Dictionaries } from './application/dictionaries';
import { Documents } from './application/documents';
import { IngestDocument } from './application/ingest-document.use-case';
import { KnowledgeBases } from './application/knowledge-bases';
import { KnowledgeForAgents } from './application/knowledge-for-agents';
import { KnowledgeQueue } from './application/knowledge-jobs';
import {
  ChatbotRepository,
  DictionaryRepository,
  DocumentFiles,
  DocumentRepository,
  DocumentTextReader,
  IngestQueueProbe,
  KnowledgeBaseRepository,
} from './application/knowledge.ports';
import { ChatbotsController, EmbedChatController } from './http/chatbots.controller';
import { AgentDictionariesController, DictionariesController } from './http/dictionaries.controller';
import { DocumentsController, DocumentUploadInterceptor } from './http/documents.controller';
import { KnowledgeBasesController } from './http/knowledge-bases.controller';
import { MultiFormatTextReader } from './infrastructure/document-text-reader';
import { KnowledgeProcessor } from './infrastructure/knowledge.processor';
import {
  SqlChatbotRepository,
  SqlDictionaryRepository,
  SqlDocumentRepository,
  SqlKnowledgeBaseRepository,
} from './infrastructure/persistence/sql-knowledge.repositories';
import { RedisIngestQueueProbe } from './infrastructure/redis-ingest-queue-probe';
import { DOCUMENT_FILE_STORE_PROVIDER, StoreDocumentFiles } from './infrastructure/store-document-files';

const useCases = [Documents, IngestDocument, KnowledgeBases, Chatbots, Dictionaries, KnowledgeForAgents];

/**
 * Knowledge without controllers: documents (stored through the shared FileStore port, ingested by
 * the worker), knowledge bases, chatbots, dictionaries; it answers the agents module's questions
 * about knowledgeDocIds (decisions.md 39).
 */
@Module({
  imports: [AgentsCoreModule, AssistCoreModule],
  providers: [
    ...useCases,
    DOCUMENT_FILE_STORE_PROVIDER,
    { provide: DocumentFiles, useClass: StoreDocumentFiles },
    { provide: DocumentRepository, useClass: SqlDocumentRepository },
    { provide: KnowledgeBaseRepository, useClass: SqlKnowledgeBaseRepository },
    { provide: ChatbotRepository, useClass: SqlChatbotRepository },
    { provide: DictionaryRepository, useClass: SqlDictionaryRepository },
    { provide: DocumentTextReader, useClass: MultiFormatTextReader },
    { provide: IngestQueueProbe, useClass: RedisIngestQueueProbe },
  ],
  exports: useCases,
})
export class KnowledgeCoreModule implements OnModuleInit {
  constructor(
    private readonly agentKnowledge: AgentKnowledge,
    private readonly source: KnowledgeForAgents,
  ) {}

  onModuleInit(): void {
    this.agentKnowledge.register(this.source);
  }
}

/** The HTTP face: /documents, /knowledge-bases, /chatbots, /embed/chat, /dictionaries, /agents/{id}/dictionaries. */
@Module({
  imports: [KnowledgeCoreModule],
  controllers: [DocumentsController, KnowledgeBasesController, ChatbotsController, EmbedChatController, DictionariesController, AgentDictionariesController],
  providers: [DocumentUploadInterceptor],
})
export class KnowledgeModule {}

/** The worker side: queue `knowledge` (document ingestion). */
@Module({
  imports: [KnowledgeCoreModule, workerQueues(KnowledgeQueue.Knowledge)],
  providers: [KnowledgeProcessor],
})
export class KnowledgeWorkerModule {}
