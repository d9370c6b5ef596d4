import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, Clock, UnitOfWork } from '@outreach/core';
import { EmailTemplate, EmailTemplateFields } from '../domain/email-template';
import { VariableBinding } from '../domain/variable-bindings';
import { EmailTemplateRepository } from './messaging.ports';
import { templateNotFound } from './whatsapp-templates';

export interface EmailTemplateView {
  id: string;
  name: string;
  subject: string;
  htmlBody: string | null;
  textBody: string | null;
  bindings: VariableBinding[];
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

export function emailTemplateView(template: EmailTemplate): EmailTemplateView {
  const p = template.toProps();
  return {
    id: p.id,
    name: p.name,
    subject: p.subject,
    htmlBody: p.htmlBody,
    textBody: p.textBody,
    bindings: p.bindings,
    isDefault: p.isDefault,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export type NewEmailTemplateInput = Omit<EmailTemplateFields, 'htmlBody' | 'textBody'> & {
  htmlBody?: string | null;
  textBody?: string | null;
  isDefault?: boolean;
};

/** The workspace's email templates (/email/templates). The first one is the default (what an EMAIL campaign sends). */
@Injectable()
export class EmailTemplates {
  constructor(
    private readonly templates: EmailTemplateRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async create(workspaceId: string, input: NewEmailTemplateInput): Promise<EmailTemplateView> {
    return this.uow.run(async () => {
      await this.templates.lockWorkspace(workspaceId);
      const first = !(await this.templates.hasDefault(workspaceId));
      const { isDefault, ...fields } = input;
      const template = EmailTemplate.create({
        id: randomUUID(),
        workspaceId,
        fields: { ...fields, htmlBody: fields.htmlBody ?? null, textBody: fields.textBody ?? null },
        isDefault: first || isDefault === true,
        now: this.clock.now(),
      });
      if (template.isDefault) await this.templates.clearDefault(workspaceId, template.id);
      await this.templates.insert(template);
      return emailTemplateView(template);
    });
  }

  async list(workspaceId: string): Promise<EmailTemplateView[]> {
    return (await this.templates.listByWorkspace(workspaceId)).map(emailTemplateView);
  }

  async get(workspaceId: string, id: string): Promise<EmailTemplateView> {
    const template = await this.templates.findById(workspaceId, id);
    if (!template) throw templateNotFound(id);
    return emailTemplateView(template);
  }

  async update(workspaceId: string, id: string, changes: Partial<EmailTemplateFields> & { isDefault?: boolean }): Promise<EmailTemplateView> {
    if (Object.values(changes).every((v) => v === undefined)) {
      throw new AppError('no_fields_to_update', { message: 'send at least one template field' });
    }
    return this.uow.run(async () => {
      await this.templates.lockWorkspace(workspaceId);
      const template = await this.templates.findById(workspaceId, id, { lock: true });
      if (!template) throw templateNotFound(id);
      template.edit(changes, this.clock.now());
      if (changes.isDefault) await this.templates.clearDefault(workspaceId, template.id);
      await this.templates.update(template);
      return emailTemplateView(template);
    });
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    await this.uow.run(async () => {
      await this.templates.lockWorkspace(workspaceId);
      if (!(await this.templates.delete(workspaceId, id))) throw templateNotFound(id);
      await this.templates.ensureDefault(workspaceId);
    });
  }
}
