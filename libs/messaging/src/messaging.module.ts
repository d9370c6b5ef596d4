import { Module } from '@nestjs/common';
import { workerQueues } from '@outreach/platform';
import { EmailSenders } from './application/email-senders';
import { EmailTemplates } from './application/email-templates';
import { EmailProvider, MessageEvents, WhatsappProvider } from './application/message-provider.port';
import { MessagingQueue } from './application/messaging-jobs';
import { MessagingReadiness } from './application/messaging-readiness';
import {
  CredentialSealer,
  EmailSenderRepository,
  EmailTemplateRepository,
  OptOutRepository,
  WhatsappSenderRepository,
  WhatsappTemplateRepository,
} from './application/messaging.ports';
import { OptOuts } from './application/opt-outs';
import { WhatsappSenders } from './application/whatsapp-senders';
import { WhatsappTemplates } from './application/whatsapp-templates';
import { EmailSendersController, EmailTemplatesController } from './http/email.controllers';
import { WhatsappSendersController, WhatsappTemplatesController } from './http/whatsapp.controllers';
import { AesGcmCredentialSealer } from './infrastructure/aes-gcm-credential-sealer';
import { MessagingProcessor } from './infrastructure/messaging.processor';
import { SqlEmailSenderRepository, SqlEmailTemplateRepository } from './infrastructure/persistence/sql-email.repositories';
import { SqlOptOutRepository } from './infrastructure/persistence/sql-opt-out.repository';
import { SqlWhatsappSenderRepository, SqlWhatsappTemplateRepository } from './infrastructure/persistence/sql-whatsapp.repositories';
import { SandboxEmailProvider } from './infrastructure/sandbox-email.provider';
import { SandboxWhatsappProvider } from './infrastructure/sandbox-whatsapp.provider';

const useCases = [WhatsappSenders, WhatsappTemplates, EmailSenders, EmailTemplates, MessagingReadiness, OptOuts];

/** Senders, templates, opt-outs and the channels' providers, without controllers: for the api, the worker and the cli. */
@Module({
  providers: [
    ...useCases,
    MessageEvents,
    { provide: WhatsappSenderRepository, useClass: SqlWhatsappSenderRepository },
    { provide: WhatsappTemplateRepository, useClass: SqlWhatsappTemplateRepository },
    { provide: EmailSenderRepository, useClass: SqlEmailSenderRepository },
    { provide: EmailTemplateRepository, useClass: SqlEmailTemplateRepository },
    { provide: OptOutRepository, useClass: SqlOptOutRepository },
    { provide: CredentialSealer, useClass: AesGcmCredentialSealer },
    // The deterministic sandboxes are the default providers (DESIGN §14.1); real adapters come with the engine's message legs.
    { provide: WhatsappProvider, useClass: SandboxWhatsappProvider },
    { provide: EmailProvider, useClass: SandboxEmailProvider },
  ],
  exports: [...useCases, MessageEvents, WhatsappProvider, EmailProvider],
})
export class MessagingCoreModule {}

/** The HTTP face: /whatsapp/senders, /whatsapp/templates, /email/senders, /email/templates. */
@Module({
  imports: [MessagingCoreModule],
  controllers: [WhatsappSendersController, WhatsappTemplatesController, EmailSendersController, EmailTemplatesController],
  exports: [MessagingCoreModule],
})
export class MessagingModule {}

/** The worker side: queue `messaging` (sender verification, template review). */
@Module({
  imports: [MessagingCoreModule, workerQueues(MessagingQueue.Messaging)],
  providers: [MessagingProcessor],
})
export class MessagingWorkerModule {}
