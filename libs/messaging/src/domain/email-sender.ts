import { AppError } from '@outreach/core';

/**
 * An email sender mailbox (decisions.md 30.6): the From address and name, an optional Reply-To,
 * and the SMTP credentials to send with (sealed at rest, never returned).
 */
export interface EmailSenderProps {
  id: string;
  workspaceId: string;
  fromAddress: string;
  displayName: string;
  replyTo: string | null;
  isDefault: boolean;
  hasCredentials: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface EmailSenderChanges {
  displayName?: string;
  replyTo?: string | null;
  isDefault?: boolean;
}

export class EmailSender {
  private constructor(private props: EmailSenderProps) {}

  static create(input: Omit<EmailSenderProps, 'createdAt' | 'updatedAt'> & { now: Date }): EmailSender {
    const { now, ...rest } = input;
    return new EmailSender({ ...rest, fromAddress: rest.fromAddress.toLowerCase(), replyTo: rest.replyTo?.toLowerCase() ?? null, createdAt: now, updatedAt: now });
  }

  static restore(props: EmailSenderProps): EmailSender {
    return new EmailSender({ ...props });
  }

  get id(): string {
    return this.props.id;
  }

  get workspaceId(): string {
    return this.props.workspaceId;
  }

  get isDefault(): boolean {
    return this.props.isDefault;
  }

  edit(changes: EmailSenderChanges, now: Date): void {
    if (changes.displayName !== undefined) this.props.displayName = changes.displayName;
    if (changes.replyTo !== undefined) this.props.replyTo = changes.replyTo?.toLowerCase() ?? null;
    if (changes.isDefault !== undefined) {
      if (changes.isDefault === false && this.props.isDefault) {
        throw new AppError('invalid_request', { message: 'a workspace keeps one default mailbox: make another mailbox the default instead' });
      }
      this.props.isDefault = changes.isDefault;
    }
    this.props.updatedAt = now;
  }

  /** New SMTP credentials were given (sealed by the repository). */
  markCredentials(now: Date): void {
    this.props.hasCredentials = true;
    this.props.updatedAt = now;
  }

  toProps(): EmailSenderProps {
    return { ...this.props };
  }
}
