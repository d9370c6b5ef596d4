import { Module } from '@nestjs/common';
import { BillingModule } from '@outreach/billing';
import { AppConfig } from '@outreach/core';
import { MessageEventIntake } from './application/message-event-intake';
import { MessageQueries } from './application/message-queries';
import { MessageLegs } from './application/message-legs';
import { MessagingWebhooks } from './application/messaging-webhooks';
import { SendMessage } from './application/send-message';
import { UnsubscribeLinks } from './application/unsubscribe-links';
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
  MessageRepository,
  OptOutRepository,
  WhatsappSenderRepository,
  WhatsappTemplateRepository,
} from './application/messaging.ports';
import { OptOuts } from './application/opt-outs';
import { WhatsappSenders } from './application/whatsapp-senders';
import { WhatsappTemplates } from './application/whatsapp-templates';
import { EmailSendersController, EmailTemplatesController } from './http/email.controllers';
import { MessagingWebhooksController } from './http/messaging-webhooks.controller';
import { WhatsappMessagesController, WhatsappSendersController, WhatsappTemplatesController } from './http/whatsapp.controllers';
import { SqlMessageRepository } from './infrastructure/persistence/sql-message.repository';
import { AesGcmCredentialSealer } from './infrastructure/aes-gcm-credential-sealer';
import { MessagingProcessor } from './infrastructure/messaging.processor';
import { SqlEmailSenderRepository, SqlEmailTemplateRepository } from './infrastructure/persistence/sql-email.repositories';
import { SqlOptOutRepository } from './infrastructure/persistence/sql-opt-out.repository';
import { SqlWhatsappSenderRepository, SqlWhatsappTemplateRepository } from './infrastructure/persistence/sql-whatsapp.repositories';
import { SandboxEmailProvider } from './infrastructure/sandbox-email.provider';
import { SandboxWhatsappProvider } from './infrastructure/sandbox-whatsapp.provider';
import { CloudApiWhatsappProvider } from './infrastructure/cloud-api-whatsapp.provider';
import { RoutingWhatsappProvider } from './infrastructure/routing-whatsapp.provider';
import { RoutingEmailProvider } from './infrastructure/routing-email.provider';
import { SmtpEmailProvider } from './infrastructure/smtp-email.provider';

const useCases = [
  WhatsappSenders,
  WhatsappTemplates,
  EmailSenders,
  EmailTemplates,
  MessagingReadiness,
  OptOuts,
  SendMessage,
  MessageEventIntake,
  MessageQueries,
  MessageLegs,
  MessagingWebhooks,
  UnsubscribeLinks,
];

/** Senders, templates, opt-outs and the channels' providers, without controllers: for the api, the worker and the cli. */
@Module({
  imports: [BillingModule],
  providers: [
    ...useCases,
    { provide: MessageRepository, useClass: SqlMessageRepository },
    MessageEvents,
    { provide: WhatsappSenderRepository, useClass: SqlWhatsappSenderRepository },
    { provide: WhatsappTemplateRepository, useClass: SqlWhatsappTemplateRepository },
    { provide: EmailSenderRepository, useClass: SqlEmailSenderRepository },
    { provide: EmailTemplateRepository, useClass: SqlEmailTemplateRepository },
    { provide: OptOutRepository, useClass: SqlOptOutRepository },
    { provide: CredentialSealer, useClass: AesGcmCredentialSealer },
    // The deterministic sandboxes are the default providers (decisions.md section 30).
    SandboxWhatsappProvider,
    {
      // Each sender's credentials pick its API: the Cloud API adapter or the sandbox (decisions.md 30.18).
      provide: WhatsappProvider,
      inject: [SandboxWhatsappProvider, AppConfig],
      useFactory: (sandbox: SandboxWhatsappProvider, config: AppConfig) =>
        new RoutingWhatsappProvider(sandbox, new CloudApiWhatsappProvider({ baseUrl: config.whatsappGraphBaseUrl, timeoutMs: config.whatsappGraphTimeoutMs })),
    },
    SandboxEmailProvider,
    {
      // Each mailbox's credentials pick: its SMTP server or the sandbox (decisions.md 30.19).
      provide: EmailProvider,
      inject: [SandboxEmailProvider, AppConfig],
      useFactory: (sandbox: SandboxEmailProvider, config: AppConfig) => new RoutingEmailProvider(sandbox, new SmtpEmailProvider({ timeoutMs: config.smtpTimeoutMs })),
    },
  ],
  exports: [...useCases, MessageEvents, WhatsappProvider, EmailProvider],
})
export class MessagingCoreModule {}

/** The HTTP face: /whatsapp/senders, /whatsapp/templates, /whatsapp/messages, /email/senders, /email/templates, the webhooks and /unsubscribe. */
@Module({
  imports: [MessagingCoreModule],
  controllers: [
    WhatsappSendersController,
    WhatsappTemplatesController,
    WhatsappMessagesController,
    EmailSendersController,
    EmailTemplatesController,
    MessagingWebhooksController,
  ],
  exports: [MessagingCoreModule],
})
export class MessagingModule {}

/** The worker side: queue `messaging` (sender verification, template review, webhook reports). */
@Module({
  imports: [MessagingCoreModule, workerQueues(MessagingQueue.Messaging)],
  providers: [MessagingProcessor],
})
export class MessagingWorkerModule {}
