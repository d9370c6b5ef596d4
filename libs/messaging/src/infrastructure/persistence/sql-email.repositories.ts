import { Injectable } from '@nestjs/common';
import { AppError } from '@outreach/core';
import { isUniqueViolation, isUuid, TransactionHost } from '@outreach/platform';
import { SmtpCredentials } from '../../application/message-provider.port';
import { CredentialSealer, EmailSenderRepository, EmailTemplateRepository } from '../../application/messaging.ports';
import { EmailSender } from '../../domain/email-sender';
import { EmailTemplate } from '../../domain/email-template';
import { EMAIL_SENDER_COLUMNS, EMAIL_SENDERS, EMAIL_SENDERS_ADDRESS_INDEX, EMAIL_TEMPLATES, EMAIL_TEMPLATES_NAME_INDEX } from './messaging.tables';
import { workspaceLock } from './workspace-lock';

const SEALED_ONLY = ['credentialsSealed'] as const;

type Row = Record<string, unknown>;

const S = EMAIL_SENDERS.c;
const SELECT_SENDER = `SELECT ${EMAIL_SENDERS.select(undefined, EMAIL_SENDER_COLUMNS)} FROM ${EMAIL_SENDERS.name}`;
const SENDER_UPDATE_COLUMNS = EMAIL_SENDER_COLUMNS.filter((k) => k !== 'id' && k !== 'workspaceId' && k !== 'createdAt');

export function emailSenderSealContext(workspaceId: string, id: string): string {
  return `email_senders:${workspaceId.toLowerCase()}:${id.toLowerCase()}`;
}

@Injectable()
export class SqlEmailSenderRepository extends EmailSenderRepository {
  constructor(
    private readonly tx: TransactionHost,
    private readonly sealer: CredentialSealer,
  ) {
    super();
  }

  async insert(sender: EmailSender, credentials: SmtpCredentials): Promise<void> {
    const props = sender.toProps();
    const { sql, params } = EMAIL_SENDERS.insert({ ...props, credentialsSealed: this.seal(props.workspaceId, props.id, credentials) });
    try {
      await this.tx.manager.query(sql, params);
    } catch (error) {
      if (isUniqueViolation(error, EMAIL_SENDERS_ADDRESS_INDEX)) {
        throw new AppError('invalid_request', {
          message: `${props.fromAddress} is a sender mailbox of this workspace already`,
          issues: [{ path: 'fromAddress', message: 'already a sender of this workspace' }],
        });
      }
      throw error;
    }
  }

  async update(sender: EmailSender, credentials?: SmtpCredentials): Promise<void> {
    const props = sender.toProps();
    const record = { ...props, credentialsSealed: credentials ? this.seal(props.workspaceId, props.id, credentials) : null };
    const { sql, params } = EMAIL_SENDERS.update(record, ['id'], credentials ? [...SENDER_UPDATE_COLUMNS, 'credentialsSealed'] : SENDER_UPDATE_COLUMNS);
    await this.tx.manager.query(sql, params);
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const [, count]: [unknown[], number] = await this.tx.manager.query(`DELETE FROM ${EMAIL_SENDERS.name} WHERE ${S.id} = $1 AND ${S.workspaceId} = $2`, [
      id,
      workspaceId,
    ]);
    return count > 0;
  }

  async findById(workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<EmailSender | null> {
    if (!isUuid(id) || !isUuid(workspaceId)) return null;
    const forUpdate = options.lock && this.tx.inTransaction ? ' FOR UPDATE' : '';
    const [row]: Row[] = await this.tx.manager.query(`${SELECT_SENDER} WHERE ${S.id} = $1 AND ${S.workspaceId} = $2${forUpdate}`, [id, workspaceId]);
    return row ? EmailSender.restore(EMAIL_SENDERS.fromRow(row, EMAIL_SENDER_COLUMNS)) : null;
  }

  async findAnyById(id: string): Promise<EmailSender | null> {
    if (!isUuid(id)) return null;
    const [row]: Row[] = await this.tx.manager.query(`${SELECT_SENDER} WHERE ${S.id} = $1`, [id]);
    return row ? EmailSender.restore(EMAIL_SENDERS.fromRow(row, EMAIL_SENDER_COLUMNS)) : null;
  }

  async listByWorkspace(workspaceId: string): Promise<EmailSender[]> {
    if (!isUuid(workspaceId)) return [];
    const rows: Row[] = await this.tx.manager.query(`${SELECT_SENDER} WHERE ${S.workspaceId} = $1 ORDER BY ${S.createdAt}, ${S.id}`, [workspaceId]);
    return rows.map((row) => EmailSender.restore(EMAIL_SENDERS.fromRow(row, EMAIL_SENDER_COLUMNS)));
  }

  async clearDefault(workspaceId: string, exceptId: string): Promise<void> {
    await this.tx.manager.query(
      `UPDATE ${EMAIL_SENDERS.name} SET ${S.isDefault} = false WHERE ${S.workspaceId} = $1 AND ${S.id} <> $2 AND ${S.isDefault}`,
      [workspaceId, exceptId],
    );
  }

  async ensureDefault(workspaceId: string): Promise<void> {
    await ensureOneDefault(this.tx, EMAIL_SENDERS.name, workspaceId);
  }

  lockWorkspace(workspaceId: string): Promise<void> {
    return workspaceLock(this.tx, 'email_senders', workspaceId);
  }

  async revealCredentials(workspaceId: string, id: string): Promise<SmtpCredentials | null> {
    if (!isUuid(id) || !isUuid(workspaceId)) return null;
    const [row]: Row[] = await this.tx.manager.query(
      `SELECT ${EMAIL_SENDERS.select(undefined, ['credentialsSealed'])} FROM ${EMAIL_SENDERS.name} WHERE ${S.id} = $1 AND ${S.workspaceId} = $2`,
      [id, workspaceId],
    );
    const sealed = row ? EMAIL_SENDERS.fromRow(row, SEALED_ONLY).credentialsSealed : null;
    if (!sealed) return null;
    return JSON.parse(this.sealer.open(sealed, emailSenderSealContext(workspaceId, id))) as SmtpCredentials;
  }

  private seal(workspaceId: string, id: string, credentials: SmtpCredentials): string {
    return this.sealer.seal(JSON.stringify(credentials), emailSenderSealContext(workspaceId, id));
  }
}

/** The oldest row of the workspace becomes the default when none is (tables with workspace_id, is_default, created_at). */
async function ensureOneDefault(tx: TransactionHost, table: string, workspaceId: string): Promise<void> {
  await tx.manager.query(
    `UPDATE ${table} SET is_default = true
      WHERE id = (SELECT id FROM ${table} WHERE workspace_id = $1 ORDER BY created_at, id LIMIT 1)
        AND NOT EXISTS (SELECT 1 FROM ${table} WHERE workspace_id = $1 AND is_default)`,
    [workspaceId],
  );
}

const T = EMAIL_TEMPLATES.c;
const SELECT_TEMPLATE = `SELECT ${EMAIL_TEMPLATES.select()} FROM ${EMAIL_TEMPLATES.name}`;

@Injectable()
export class SqlEmailTemplateRepository extends EmailTemplateRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(template: EmailTemplate): Promise<void> {
    const { sql, params } = EMAIL_TEMPLATES.insert(template.toProps());
    await this.write(template, sql, params);
  }

  async update(template: EmailTemplate): Promise<void> {
    const { sql, params } = EMAIL_TEMPLATES.update(template.toProps(), ['id']);
    await this.write(template, sql, params);
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const [, count]: [unknown[], number] = await this.tx.manager.query(`DELETE FROM ${EMAIL_TEMPLATES.name} WHERE ${T.id} = $1 AND ${T.workspaceId} = $2`, [
      id,
      workspaceId,
    ]);
    return count > 0;
  }

  async findById(workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<EmailTemplate | null> {
    if (!isUuid(id) || !isUuid(workspaceId)) return null;
    const forUpdate = options.lock && this.tx.inTransaction ? ' FOR UPDATE' : '';
    const [row]: Row[] = await this.tx.manager.query(`${SELECT_TEMPLATE} WHERE ${T.id} = $1 AND ${T.workspaceId} = $2${forUpdate}`, [id, workspaceId]);
    return row ? EmailTemplate.restore(EMAIL_TEMPLATES.fromRow(row)) : null;
  }

  async listByWorkspace(workspaceId: string): Promise<EmailTemplate[]> {
    if (!isUuid(workspaceId)) return [];
    const rows: Row[] = await this.tx.manager.query(`${SELECT_TEMPLATE} WHERE ${T.workspaceId} = $1 ORDER BY ${T.createdAt}, ${T.id}`, [workspaceId]);
    return rows.map((row) => EmailTemplate.restore(EMAIL_TEMPLATES.fromRow(row)));
  }

  async clearDefault(workspaceId: string, exceptId: string): Promise<void> {
    await this.tx.manager.query(
      `UPDATE ${EMAIL_TEMPLATES.name} SET ${T.isDefault} = false WHERE ${T.workspaceId} = $1 AND ${T.id} <> $2 AND ${T.isDefault}`,
      [workspaceId, exceptId],
    );
  }

  async ensureDefault(workspaceId: string): Promise<void> {
    await ensureOneDefault(this.tx, EMAIL_TEMPLATES.name, workspaceId);
  }

  lockWorkspace(workspaceId: string): Promise<void> {
    return workspaceLock(this.tx, 'email_templates', workspaceId);
  }

  async hasDefault(workspaceId: string): Promise<boolean> {
    if (!isUuid(workspaceId)) return false;
    const rows: Row[] = await this.tx.manager.query(`SELECT 1 FROM ${EMAIL_TEMPLATES.name} WHERE ${T.workspaceId} = $1 AND ${T.isDefault}`, [workspaceId]);
    return rows.length > 0;
  }

  private async write(template: EmailTemplate, sql: string, params: unknown[]): Promise<void> {
    try {
      await this.tx.manager.query(sql, params);
    } catch (error) {
      if (isUniqueViolation(error, EMAIL_TEMPLATES_NAME_INDEX)) {
        throw new AppError('name_taken', {
          message: `an email template named ${JSON.stringify(template.name)} exists in this workspace`,
          issues: [{ path: 'name', message: 'already used by another email template of the workspace' }],
        });
      }
      throw error;
    }
  }
}
