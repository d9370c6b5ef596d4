import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, Clock, UnitOfWork } from '@outreach/core';
import { EmailSender, EmailSenderChanges } from '../domain/email-sender';
import { SmtpCredentials } from './message-provider.port';
import { EmailSenderRepository } from './messaging.ports';

export interface EmailSenderView {
  id: string;
  fromAddress: string;
  displayName: string;
  replyTo: string | null;
  isDefault: boolean;
  hasCredentials: boolean;
  createdAt: string;
  updatedAt: string;
}

export function emailSenderView(sender: EmailSender): EmailSenderView {
  const p = sender.toProps();
  return {
    id: p.id,
    fromAddress: p.fromAddress,
    displayName: p.displayName,
    replyTo: p.replyTo,
    isDefault: p.isDefault,
    hasCredentials: p.hasCredentials,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export interface NewEmailSenderInput {
  fromAddress: string;
  displayName: string;
  replyTo?: string | null;
  isDefault?: boolean;
  smtp: SmtpCredentials;
}

const notFound = (id: string) => new AppError('not_found', { message: `no email sender ${id}` });

/** The workspace's sender mailboxes (/email/senders). The first one is the default. */
@Injectable()
export class EmailSenders {
  constructor(
    private readonly senders: EmailSenderRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async create(workspaceId: string, input: NewEmailSenderInput): Promise<EmailSenderView> {
    return this.uow.run(async () => {
      await this.senders.lockWorkspace(workspaceId);
      const first = (await this.senders.listByWorkspace(workspaceId)).length === 0;
      const sender = EmailSender.create({
        id: randomUUID(),
        workspaceId,
        fromAddress: input.fromAddress,
        displayName: input.displayName,
        replyTo: input.replyTo ?? null,
        isDefault: first || input.isDefault === true,
        hasCredentials: true,
        now: this.clock.now(),
      });
      if (sender.isDefault) await this.senders.clearDefault(workspaceId, sender.id);
      await this.senders.insert(sender, input.smtp);
      return emailSenderView(sender);
    });
  }

  async list(workspaceId: string): Promise<EmailSenderView[]> {
    return (await this.senders.listByWorkspace(workspaceId)).map(emailSenderView);
  }

  async get(workspaceId: string, id: string): Promise<EmailSenderView> {
    const sender = await this.senders.findById(workspaceId, id);
    if (!sender) throw notFound(id);
    return emailSenderView(sender);
  }

  async update(workspaceId: string, id: string, changes: EmailSenderChanges & { smtp?: SmtpCredentials }): Promise<EmailSenderView> {
    if (Object.values(changes).every((v) => v === undefined)) {
      throw new AppError('no_fields_to_update', { message: 'send at least one sender field' });
    }
    return this.uow.run(async () => {
      await this.senders.lockWorkspace(workspaceId);
      const sender = await this.senders.findById(workspaceId, id, { lock: true });
      if (!sender) throw notFound(id);
      const { smtp, ...rest } = changes;
      sender.edit(rest, this.clock.now());
      if (smtp) sender.markCredentials(this.clock.now());
      if (rest.isDefault) await this.senders.clearDefault(workspaceId, sender.id);
      await this.senders.update(sender, smtp);
      return emailSenderView(sender);
    });
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    await this.uow.run(async () => {
      await this.senders.lockWorkspace(workspaceId);
      if (!(await this.senders.delete(workspaceId, id))) throw notFound(id);
      await this.senders.ensureDefault(workspaceId);
    });
  }
}
