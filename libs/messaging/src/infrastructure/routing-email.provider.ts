import { AcceptedMessage, EmailProvider, OutboundEmail } from '../application/message-provider.port';

/** The email provider the module uses (decisions.md 30.19): a mailbox whose credentials say `provider: SMTP` sends through its SMTP server; every other through the sandbox (the default). */
export class RoutingEmailProvider extends EmailProvider {
  readonly name = 'email';

  constructor(
    private readonly sandbox: EmailProvider,
    private readonly smtp: EmailProvider,
  ) {
    super();
  }

  send(message: OutboundEmail): Promise<AcceptedMessage> {
    return (message.credentials?.provider === 'SMTP' ? this.smtp : this.sandbox).send(message);
  }
}
