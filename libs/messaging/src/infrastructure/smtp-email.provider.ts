import { AppError } from '@outreach/core';
import { createTransport } from 'nodemailer';
import { AcceptedMessage, EmailProvider, OutboundEmail, SmtpCredentials } from '../application/message-provider.port';

export interface SmtpOptions {
  /** Longest a connection, the greeting or a socket pause may take, ms. */
  timeoutMs: number;
}

/**
 * Sends email through the mailbox's own SMTP server with nodemailer (decisions.md 30.19): From
 * with the display name, Reply-To, the subject, the text and HTML bodies, a Message-ID of our own
 * (`<message id@from domain>`: the provider's id for the message, which bounce reports name), and
 * the recipient's unsubscribe link as `List-Unsubscribe` with `List-Unsubscribe-Post: One-Click`
 * (RFC 8058). A permanent SMTP refusal (5xx reply) is 502 provider_error with upstreamStatus 400
 * (rejected: the message FAILS); a temporary one (4xx reply) or an unreachable server is 502
 * provider_error with upstreamStatus 503 or none (down: the send is tried again later).
 */
export class SmtpEmailProvider extends EmailProvider {
  readonly name = 'smtp';

  constructor(private readonly options: SmtpOptions) {
    super();
  }

  async send(message: OutboundEmail): Promise<AcceptedMessage> {
    const credentials = required(message.credentials);
    const transport = createTransport({
      host: credentials.host,
      port: credentials.port,
      secure: credentials.secure,
      auth: { user: credentials.username, pass: credentials.password },
      connectionTimeout: this.options.timeoutMs,
      greetingTimeout: this.options.timeoutMs,
      socketTimeout: this.options.timeoutMs,
    });
    const domain = message.from.address.slice(message.from.address.lastIndexOf('@') + 1) || 'localhost';
    const messageId = `<${message.messageId}@${domain}>`;
    try {
      const info = await transport.sendMail({
        from: { name: message.from.name, address: message.from.address },
        to: message.to,
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
        subject: message.subject,
        ...(message.text !== null ? { text: message.text } : {}),
        ...(message.html !== null ? { html: message.html } : {}),
        messageId,
        ...(message.unsubscribeUrl
          ? { list: { unsubscribe: { url: message.unsubscribeUrl, comment: 'Unsubscribe' } }, headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } }
          : {}),
      });
      return { providerMessageId: (info as { messageId?: string }).messageId ?? messageId };
    } catch (error) {
      throw smtpRefusal(error);
    } finally {
      transport.close();
    }
  }
}

function required(credentials: SmtpCredentials | null): SmtpCredentials {
  if (!credentials) throw new AppError('provider_error', { message: 'SMTP needs the mailbox’s credentials' });
  return credentials;
}

function smtpRefusal(error: unknown): AppError {
  const e = error as { responseCode?: number; response?: string; code?: string; message?: string };
  const reply = typeof e.responseCode === 'number' ? e.responseCode : null;
  const text = (e.response ?? e.message ?? String(error)).slice(0, 300);
  if (reply !== null && reply >= 500) {
    return new AppError('provider_error', { message: `the SMTP server refused the message: ${text}`, upstreamStatus: 400, detail: { smtpCode: reply } });
  }
  if (reply !== null && reply >= 400) {
    return new AppError('provider_error', { message: `the SMTP server refused the message for now: ${text}`, upstreamStatus: 503, detail: { smtpCode: reply } });
  }
  return new AppError('provider_error', { message: `the SMTP server could not be reached: ${e.code ?? text}` });
}
