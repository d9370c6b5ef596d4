// Public surface of the messaging module (issue 12, foundation): WhatsApp senders and templates,
// email senders and templates, opt-outs, and the channels' provider ports with their sandboxes.
import { defineMigrations } from '@outreach/platform';
export * from './messaging.errors';
import { Messaging1763700009900 } from './infrastructure/migrations/1763700009900-messaging';

export { MessagingCoreModule, MessagingModule, MessagingWorkerModule } from './messaging.module';
export { MessagingJob, MessagingQueue } from './application/messaging-jobs';
export {
  AcceptedMessage,
  EmailProvider,
  MessageEvent,
  MessageEvents,
  OutboundEmail,
  OutboundWhatsappMessage,
  SmtpCredentials,
  TransientProviderError,
  WhatsappCredentials,
  WhatsappProvider,
} from './application/message-provider.port';
export { MessagingReadiness, OutreachTemplateReadiness } from './application/messaging-readiness';
export { OptOuts } from './application/opt-outs';
export { WhatsappSenders, WhatsappSenderView } from './application/whatsapp-senders';
export { WhatsappTemplates, WhatsappTemplateView } from './application/whatsapp-templates';
export { EmailSenders, EmailSenderView } from './application/email-senders';
export { EmailTemplates, EmailTemplateView } from './application/email-templates';
export { SandboxWhatsappProvider, sandboxWhatsappScript, sandboxSenderVerification, sandboxTemplateReview } from './infrastructure/sandbox-whatsapp.provider';
export { SandboxEmailProvider, sandboxEmailOutcome } from './infrastructure/sandbox-email.provider';
export { BINDING_SOURCES, RUNTIME_VALUES, VariableBinding } from './domain/variable-bindings';
export { MESSAGE_CHANNELS, MessageChannel, OPT_OUT_KEYWORDS, isOptOutKeyword } from './domain/opt-out';
export const MESSAGING_MIGRATIONS = defineMigrations('messaging', [Messaging1763700009900]);
