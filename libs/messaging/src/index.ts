// Public surface of the messaging module (issue 12, foundation): WhatsApp senders and templates,
// email senders and templates, opt-outs, and the channels' provider ports with their sandboxes.
import { defineMigrations } from '@outreach/platform';
export * from './messaging.errors';
export * from './messaging.config';
import { Messaging1763700009900 } from './infrastructure/migrations/1763700009900-messaging';
import { Messages1763700010200 } from './infrastructure/migrations/1763700010200-messages';
import { MessageReplies1763700011010 } from './infrastructure/migrations/1763700011010-message-replies';
import { UnquotedReplies1763700011900 } from './infrastructure/migrations/1763700011900-unquoted-replies';
import { DropMessageEvents1763700012200 } from './infrastructure/migrations/1763700012200-drop-message-events';

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
  WHATSAPP_APIS,
  WhatsappApi,
  EMAIL_APIS,
  EmailApi,
} from './application/message-provider.port';
export { MessagingReadiness, OutreachTemplateReadiness } from './application/messaging-readiness';
export { OptOuts } from './application/opt-outs';
export { WhatsappSenders, WhatsappSenderView } from './application/whatsapp-senders';
export { WhatsappTemplates, WhatsappTemplateView } from './application/whatsapp-templates';
export { EmailSenders, EmailSenderView } from './application/email-senders';
export { EmailTemplates, EmailTemplateView } from './application/email-templates';
export { SandboxWhatsappProvider, sandboxWhatsappScript, sandboxSenderVerification, sandboxTemplateReview } from './infrastructure/sandbox-whatsapp.provider';
export { SandboxEmailProvider, sandboxEmailOutcome } from './infrastructure/sandbox-email.provider';
export { CloudApiWhatsappProvider, CloudApiOptions } from './infrastructure/cloud-api-whatsapp.provider';
export { SmtpEmailProvider, SmtpOptions } from './infrastructure/smtp-email.provider';
export { BINDING_SOURCES, RUNTIME_VALUES, VariableBinding } from './domain/variable-bindings';
export { MESSAGE_CHANNELS, MessageChannel, OPT_OUT_KEYWORDS, isOptOutKeyword } from './domain/opt-out';
export { SendMessage, SendMessageInput, SendMessageResult, SendOutcome } from './application/send-message';
export { MessageView } from './application/message-view';
export { MessageOutcome, MessageParty, MessageQueries, RECENT_MESSAGES_WINDOW } from './application/message-queries';
export { LegMessage, MessageLegs } from './application/message-legs';
export { MessageEventIntake } from './application/message-event-intake';
export { ProviderReport, hubSignature, HUB_SIGNATURE_HEADER } from './application/provider-reports';
export { UnsubscribeLinks } from './application/unsubscribe-links';
export { MessageVariables } from './domain/message-rendering';
export { MESSAGE_STATUSES, MessageStatus } from './domain/message';
export const MESSAGING_MIGRATIONS = defineMigrations('messaging', [Messaging1763700009900, Messages1763700010200, MessageReplies1763700011010, UnquotedReplies1763700011900, DropMessageEvents1763700012200]);
