// In-memory fakes of the messaging module's ports, for use-case specs (no Nest, no database).
import { AppError } from '@outreach/core';
import { WhatsappCredentials, WhatsappProvider, AcceptedMessage, OutboundWhatsappMessage } from '../application/message-provider.port';
import { WhatsappSenderRepository, WhatsappTemplateRepository } from '../application/messaging.ports';
import { SenderVerification, WhatsappSender, WhatsappSenderProps } from '../domain/whatsapp-sender';
import { TemplateReview, WhatsappTemplate, WhatsappTemplateFields, WhatsappTemplateProps } from '../domain/whatsapp-template';

/** Senders in a map; credentials kept "sealed" as JSON beside them. Snapshot/restore for RollbackUnitOfWork. */
export class InMemoryWhatsappSenderRepository extends WhatsappSenderRepository {
  readonly rows = new Map<string, WhatsappSenderProps>();
  readonly credentials = new Map<string, string>();

  snapshot(): unknown {
    return { rows: new Map([...this.rows].map(([k, v]) => [k, { ...v }])), credentials: new Map(this.credentials) };
  }

  restore(state: unknown): void {
    const s = state as { rows: Map<string, WhatsappSenderProps>; credentials: Map<string, string> };
    this.rows.clear();
    s.rows.forEach((v, k) => this.rows.set(k, v));
    this.credentials.clear();
    s.credentials.forEach((v, k) => this.credentials.set(k, v));
  }

  async insert(sender: WhatsappSender, credentials: WhatsappCredentials | null): Promise<void> {
    const p = sender.toProps();
    if ([...this.rows.values()].some((r) => r.workspaceId === p.workspaceId && r.e164 === p.e164)) {
      throw new AppError('invalid_request', { message: `${p.e164} is a WhatsApp sender of this workspace already` });
    }
    this.rows.set(p.id, p);
    if (credentials) this.credentials.set(p.id, JSON.stringify(credentials));
  }

  async update(sender: WhatsappSender): Promise<void> {
    this.rows.set(sender.id, sender.toProps());
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.workspaceId !== workspaceId) return false;
    this.rows.delete(id);
    this.credentials.delete(id);
    return true;
  }

  async findById(workspaceId: string, id: string): Promise<WhatsappSender | null> {
    const row = this.rows.get(id);
    return row && row.workspaceId === workspaceId ? WhatsappSender.restore(row) : null;
  }

  async findAnyById(id: string): Promise<WhatsappSender | null> {
    const row = this.rows.get(id);
    return row ? WhatsappSender.restore(row) : null;
  }

  async listByWorkspace(workspaceId: string): Promise<WhatsappSender[]> {
    return [...this.rows.values()].filter((r) => r.workspaceId === workspaceId).map((r) => WhatsappSender.restore(r));
  }

  async clearDefault(workspaceId: string, exceptId: string): Promise<void> {
    for (const row of this.rows.values()) if (row.workspaceId === workspaceId && row.id !== exceptId) row.isDefault = false;
  }

  async ensureDefault(workspaceId: string): Promise<void> {
    const rows = [...this.rows.values()].filter((r) => r.workspaceId === workspaceId);
    if (rows.length > 0 && !rows.some((r) => r.isDefault)) rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0].isDefault = true;
  }

  async countConnected(workspaceId: string): Promise<number> {
    return [...this.rows.values()].filter((r) => r.workspaceId === workspaceId && r.status === 'CONNECTED').length;
  }

  async lockWorkspace(): Promise<void> {}

  async revealCredentials(sender: WhatsappSender): Promise<WhatsappCredentials | null> {
    const sealed = this.credentials.get(sender.id);
    return sealed ? (JSON.parse(sealed) as WhatsappCredentials) : null;
  }

  async findForSend(workspaceId: string, id: string): Promise<{ sender: WhatsappSender; reveal: () => WhatsappCredentials | null } | null> {
    const sender = await this.findById(workspaceId, id);
    if (!sender) return null;
    const credentials = await this.revealCredentials(sender);
    return { sender, reveal: () => credentials };
  }
}

export class InMemoryWhatsappTemplateRepository extends WhatsappTemplateRepository {
  readonly rows = new Map<string, WhatsappTemplateProps>();

  async insert(template: WhatsappTemplate): Promise<void> {
    const p = template.toProps();
    if ([...this.rows.values()].some((r) => r.workspaceId === p.workspaceId && r.name === p.name && r.language === p.language)) {
      throw new AppError('name_taken', { message: `a WhatsApp template named ${p.name} exists` });
    }
    this.rows.set(p.id, p);
  }

  async update(template: WhatsappTemplate): Promise<void> {
    this.rows.set(template.id, template.toProps());
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.workspaceId !== workspaceId) return false;
    return this.rows.delete(id);
  }

  async findById(workspaceId: string, id: string): Promise<WhatsappTemplate | null> {
    const row = this.rows.get(id);
    return row && row.workspaceId === workspaceId ? WhatsappTemplate.restore(row) : null;
  }

  async findAnyById(id: string): Promise<WhatsappTemplate | null> {
    const row = this.rows.get(id);
    return row ? WhatsappTemplate.restore(row) : null;
  }

  async listByWorkspace(workspaceId: string): Promise<WhatsappTemplate[]> {
    return [...this.rows.values()].filter((r) => r.workspaceId === workspaceId).map((r) => WhatsappTemplate.restore(r));
  }
}

/** A WhatsApp provider that records what it was asked and answers what the spec sets. */
export class RecordingWhatsappProvider extends WhatsappProvider {
  readonly name = 'recording';
  readonly verifications: Array<{ senderId: string; e164: string; credentials: WhatsappCredentials | null }> = [];
  readonly reviews: Array<{ templateId: string; fields: WhatsappTemplateFields }> = [];
  readonly sent: OutboundWhatsappMessage[] = [];
  verification: SenderVerification = { ok: true, verifiedName: 'Acme', qualityRating: 'GREEN' };
  review: TemplateReview = { status: 'APPROVED' };

  async verifySender(request: { senderId: string; e164: string; credentials: WhatsappCredentials | null }): Promise<SenderVerification> {
    this.verifications.push(request);
    return this.verification;
  }

  async reviewTemplate(request: { templateId: string; fields: WhatsappTemplateFields }): Promise<TemplateReview> {
    this.reviews.push(request);
    return this.review;
  }

  async send(message: OutboundWhatsappMessage): Promise<AcceptedMessage> {
    this.sent.push(message);
    return { providerMessageId: `recorded-${message.messageId}` };
  }
}
