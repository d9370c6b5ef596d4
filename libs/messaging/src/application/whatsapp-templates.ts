import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AppError, Clock, isUuid, Outbox, UnitOfWork } from '@outreach/core';
import { VariableBinding } from '../domain/variable-bindings';
import { WhatsappTemplate, WhatsappTemplateFields } from '../domain/whatsapp-template';
import { reviewTemplateJob } from './messaging-jobs';
import { WhatsappProvider } from './message-provider.port';
import { WhatsappTemplateRepository } from './messaging.ports';

export interface WhatsappTemplateView {
  id: string;
  name: string;
  language: string;
  category: string;
  body: string;
  footer: string | null;
  bindings: VariableBinding[];
  status: string;
  rejectionReason: string | null;
  submittedAt: string | null;
  reviewedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function whatsappTemplateView(template: WhatsappTemplate): WhatsappTemplateView {
  const p = template.toProps();
  return {
    id: p.id,
    name: p.name,
    language: p.language,
    category: p.category,
    body: p.body,
    footer: p.footer,
    bindings: p.bindings,
    status: p.status,
    rejectionReason: p.rejectionReason,
    submittedAt: p.submittedAt?.toISOString() ?? null,
    reviewedAt: p.reviewedAt?.toISOString() ?? null,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export const templateNotFound = (id: string) => new AppError('template_not_found', { message: `no template ${id}` });

/**
 * The workspace's WhatsApp templates (/whatsapp/templates): CRUD, submit, and the worker's review
 * job. Unknown or foreign ids → 404 template_not_found.
 */
@Injectable()
export class WhatsappTemplates {
  private readonly logger = new Logger('WhatsappTemplates');

  constructor(
    private readonly templates: WhatsappTemplateRepository,
    private readonly provider: WhatsappProvider,
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  async create(workspaceId: string, fields: WhatsappTemplateFields): Promise<WhatsappTemplateView> {
    const template = WhatsappTemplate.create({ id: randomUUID(), workspaceId, fields, now: this.clock.now() });
    await this.templates.insert(template);
    return whatsappTemplateView(template);
  }

  async list(workspaceId: string): Promise<WhatsappTemplateView[]> {
    return (await this.templates.listByWorkspace(workspaceId)).map(whatsappTemplateView);
  }

  async get(workspaceId: string, id: string): Promise<WhatsappTemplateView> {
    const template = await this.templates.findById(workspaceId, id);
    if (!template) throw templateNotFound(id);
    return whatsappTemplateView(template);
  }

  async update(workspaceId: string, id: string, changes: Partial<WhatsappTemplateFields>): Promise<WhatsappTemplateView> {
    if (Object.values(changes).every((v) => v === undefined)) {
      throw new AppError('no_fields_to_update', { message: 'send at least one template field' });
    }
    return this.uow.run(async () => {
      const template = await this.templates.findById(workspaceId, id, { lock: true });
      if (!template) throw templateNotFound(id);
      template.edit(changes, this.clock.now());
      await this.templates.update(template);
      return whatsappTemplateView(template);
    });
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    if (!(await this.templates.delete(workspaceId, id))) throw templateNotFound(id);
  }

  /** POST /whatsapp/templates/{id}/submit: PENDING with a review job (a PENDING template is answered as it is). */
  async submit(workspaceId: string, id: string): Promise<WhatsappTemplateView> {
    return this.uow.run(async () => {
      const template = await this.templates.findById(workspaceId, id, { lock: true });
      if (!template) throw templateNotFound(id);
      if (template.submit(this.clock.now())) {
        await this.templates.update(template);
        await this.outbox.enqueue(reviewTemplateJob(template.id));
      }
      return whatsappTemplateView(template);
    });
  }

  /**
   * Worker job: the provider's review of a PENDING template. Idempotent: a template no longer
   * PENDING is left alone. A review still pending at the provider leaves it PENDING (a real adapter
   * will poll or take the provider's webhook; the sandbox always decides).
   */
  async review(templateId: string): Promise<void> {
    if (!isUuid(templateId)) return;
    const template = await this.templates.findAnyById(templateId);
    if (!template || template.status !== 'PENDING') return;
    const review = await this.provider.reviewTemplate({ templateId: template.id, fields: template.fields() });
    await this.uow.run(async () => {
      const current = await this.templates.findAnyById(templateId, { lock: true });
      if (current?.applyReview(review, this.clock.now())) {
        await this.templates.update(current);
        this.logger.log(`WhatsApp template ${templateId} is ${current.status}`);
      }
    });
  }
}
