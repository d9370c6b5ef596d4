import { Injectable } from '@nestjs/common';
import { AppError } from '@outreach/core';
import { isUniqueViolation, isUuid, TransactionHost } from '@outreach/platform';
import { WhatsappCredentials } from '../../application/message-provider.port';
import { CredentialSealer, WhatsappSenderRepository, WhatsappTemplateRepository } from '../../application/messaging.ports';
import { WhatsappSender } from '../../domain/whatsapp-sender';
import { WhatsappTemplate } from '../../domain/whatsapp-template';
import { workspaceLock } from './workspace-lock';
import {
  WHATSAPP_SENDER_COLUMNS,
  WHATSAPP_SENDERS,
  WHATSAPP_SENDERS_NUMBER_INDEX,
  WHATSAPP_TEMPLATES,
  WHATSAPP_TEMPLATES_NAME_INDEX,
} from './messaging.tables';

const SEALED_ONLY = ['credentialsSealed'] as const;

type Row = Record<string, unknown>;

const S = WHATSAPP_SENDERS.c;
const SELECT_SENDER = `SELECT ${WHATSAPP_SENDERS.select(undefined, WHATSAPP_SENDER_COLUMNS)} FROM ${WHATSAPP_SENDERS.name}`;
const SENDER_UPDATE_COLUMNS = WHATSAPP_SENDER_COLUMNS.filter((k) => k !== 'id' && k !== 'workspaceId' && k !== 'createdAt' && k !== 'hasCredentials');

/** What binds sealed credentials to their sender: a value moved to another row does not open. */
export function senderSealContext(workspaceId: string, id: string): string {
  return `whatsapp_senders:${workspaceId.toLowerCase()}:${id.toLowerCase()}`;
}

@Injectable()
export class SqlWhatsappSenderRepository extends WhatsappSenderRepository {
  constructor(
    private readonly tx: TransactionHost,
    private readonly sealer: CredentialSealer,
  ) {
    super();
  }

  async insert(sender: WhatsappSender, credentials: WhatsappCredentials | null): Promise<void> {
    const props = sender.toProps();
    const credentialsSealed = credentials ? this.sealer.seal(JSON.stringify(credentials), senderSealContext(props.workspaceId, props.id)) : null;
    const { sql, params } = WHATSAPP_SENDERS.insert({ ...props, credentialsSealed });
    try {
      await this.tx.manager.query(sql, params);
    } catch (error) {
      if (isUniqueViolation(error, WHATSAPP_SENDERS_NUMBER_INDEX)) {
        throw new AppError('invalid_request', {
          message: `${props.e164} is a WhatsApp sender of this workspace already`,
          issues: [{ path: 'phoneNumber', message: 'already connected in this workspace' }],
        });
      }
      if ((error as { code?: string }).code === '23503') throw new AppError('invalid_request', { message: `no workspace ${props.workspaceId}` });
      throw error;
    }
  }

  async update(sender: WhatsappSender): Promise<void> {
    const { sql, params } = WHATSAPP_SENDERS.update({ ...sender.toProps(), credentialsSealed: null }, ['id'], SENDER_UPDATE_COLUMNS);
    await this.tx.manager.query(sql, params);
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const [, count]: [unknown[], number] = await this.tx.manager.query(
      `DELETE FROM ${WHATSAPP_SENDERS.name} WHERE ${S.id} = $1 AND ${S.workspaceId} = $2`,
      [id, workspaceId],
    );
    return count > 0;
  }

  async findById(workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<WhatsappSender | null> {
    if (!isUuid(id) || !isUuid(workspaceId)) return null;
    const [row]: Row[] = await this.tx.manager.query(`${SELECT_SENDER} WHERE ${S.id} = $1 AND ${S.workspaceId} = $2${this.forUpdate(options)}`, [id, workspaceId]);
    return row ? toSender(row) : null;
  }

  async findAnyById(id: string, options: { lock?: boolean } = {}): Promise<WhatsappSender | null> {
    if (!isUuid(id)) return null;
    const [row]: Row[] = await this.tx.manager.query(`${SELECT_SENDER} WHERE ${S.id} = $1${this.forUpdate(options)}`, [id]);
    return row ? toSender(row) : null;
  }

  async listByWorkspace(workspaceId: string): Promise<WhatsappSender[]> {
    if (!isUuid(workspaceId)) return [];
    const rows: Row[] = await this.tx.manager.query(`${SELECT_SENDER} WHERE ${S.workspaceId} = $1 ORDER BY ${S.createdAt}, ${S.id}`, [workspaceId]);
    return rows.map(toSender);
  }

  async clearDefault(workspaceId: string, exceptId: string): Promise<void> {
    await this.tx.manager.query(
      `UPDATE ${WHATSAPP_SENDERS.name} SET ${S.isDefault} = false WHERE ${S.workspaceId} = $1 AND ${S.id} <> $2 AND ${S.isDefault}`,
      [workspaceId, exceptId],
    );
  }

  async ensureDefault(workspaceId: string): Promise<void> {
    await this.tx.manager.query(
      `UPDATE ${WHATSAPP_SENDERS.name} SET ${S.isDefault} = true
        WHERE ${S.id} = (SELECT ${S.id} FROM ${WHATSAPP_SENDERS.name} WHERE ${S.workspaceId} = $1 ORDER BY ${S.createdAt}, ${S.id} LIMIT 1)
          AND NOT EXISTS (SELECT 1 FROM ${WHATSAPP_SENDERS.name} WHERE ${S.workspaceId} = $1 AND ${S.isDefault})`,
      [workspaceId],
    );
  }

  async countConnected(workspaceId: string): Promise<number> {
    if (!isUuid(workspaceId)) return 0;
    const [{ n }]: Array<{ n: number }> = await this.tx.manager.query(
      `SELECT count(*)::int AS n FROM ${WHATSAPP_SENDERS.name} WHERE ${S.workspaceId} = $1 AND ${S.status} = 'CONNECTED'`,
      [workspaceId],
    );
    return n;
  }

  lockWorkspace(workspaceId: string): Promise<void> {
    return workspaceLock(this.tx, 'whatsapp_senders', workspaceId);
  }

  async revealCredentials(sender: WhatsappSender): Promise<WhatsappCredentials | null> {
    const [row]: Row[] = await this.tx.manager.query(
      `SELECT ${WHATSAPP_SENDERS.select(undefined, ['credentialsSealed'])} FROM ${WHATSAPP_SENDERS.name} WHERE ${S.id} = $1`,
      [sender.id],
    );
    return this.open(sender, row ? WHATSAPP_SENDERS.fromRow(row, SEALED_ONLY).credentialsSealed : null);
  }

  async findForSend(workspaceId: string, id: string): Promise<{ sender: WhatsappSender; reveal: () => WhatsappCredentials | null } | null> {
    if (!isUuid(id) || !isUuid(workspaceId)) return null;
    const [row]: Row[] = await this.tx.manager.query(
      `SELECT ${WHATSAPP_SENDERS.select(undefined, [...WHATSAPP_SENDER_COLUMNS, 'credentialsSealed'])} FROM ${WHATSAPP_SENDERS.name}
        WHERE ${S.id} = $1 AND ${S.workspaceId} = $2`,
      [id, workspaceId],
    );
    if (!row) return null;
    const sender = toSender(row);
    const sealed = WHATSAPP_SENDERS.fromRow(row, SEALED_ONLY).credentialsSealed;
    return { sender, reveal: () => this.open(sender, sealed) };
  }

  private open(sender: WhatsappSender, sealed: string | null): WhatsappCredentials | null {
    if (!sealed) return null;
    return JSON.parse(this.sealer.open(sealed, senderSealContext(sender.workspaceId, sender.id))) as WhatsappCredentials;
  }

  private forUpdate(options: { lock?: boolean }): string {
    return options.lock && this.tx.inTransaction ? ' FOR UPDATE' : '';
  }
}

function toSender(row: Row): WhatsappSender {
  return WhatsappSender.restore(WHATSAPP_SENDERS.fromRow(row, WHATSAPP_SENDER_COLUMNS));
}

const T = WHATSAPP_TEMPLATES.c;
const SELECT_TEMPLATE = `SELECT ${WHATSAPP_TEMPLATES.select()} FROM ${WHATSAPP_TEMPLATES.name}`;

@Injectable()
export class SqlWhatsappTemplateRepository extends WhatsappTemplateRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(template: WhatsappTemplate): Promise<void> {
    const { sql, params } = WHATSAPP_TEMPLATES.insert(template.toProps());
    await this.write(template, sql, params);
  }

  async update(template: WhatsappTemplate): Promise<void> {
    const { sql, params } = WHATSAPP_TEMPLATES.update(template.toProps(), ['id']);
    await this.write(template, sql, params);
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const [, count]: [unknown[], number] = await this.tx.manager.query(
      `DELETE FROM ${WHATSAPP_TEMPLATES.name} WHERE ${T.id} = $1 AND ${T.workspaceId} = $2`,
      [id, workspaceId],
    );
    return count > 0;
  }

  async findById(workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<WhatsappTemplate | null> {
    if (!isUuid(id) || !isUuid(workspaceId)) return null;
    const forUpdate = options.lock && this.tx.inTransaction ? ' FOR UPDATE' : '';
    const [row]: Row[] = await this.tx.manager.query(`${SELECT_TEMPLATE} WHERE ${T.id} = $1 AND ${T.workspaceId} = $2${forUpdate}`, [id, workspaceId]);
    return row ? WhatsappTemplate.restore(WHATSAPP_TEMPLATES.fromRow(row)) : null;
  }

  async findAnyById(id: string, options: { lock?: boolean } = {}): Promise<WhatsappTemplate | null> {
    if (!isUuid(id)) return null;
    const forUpdate = options.lock && this.tx.inTransaction ? ' FOR UPDATE' : '';
    const [row]: Row[] = await this.tx.manager.query(`${SELECT_TEMPLATE} WHERE ${T.id} = $1${forUpdate}`, [id]);
    return row ? WhatsappTemplate.restore(WHATSAPP_TEMPLATES.fromRow(row)) : null;
  }

  async listByWorkspace(workspaceId: string): Promise<WhatsappTemplate[]> {
    if (!isUuid(workspaceId)) return [];
    const rows: Row[] = await this.tx.manager.query(`${SELECT_TEMPLATE} WHERE ${T.workspaceId} = $1 ORDER BY ${T.createdAt}, ${T.id}`, [workspaceId]);
    return rows.map((row) => WhatsappTemplate.restore(WHATSAPP_TEMPLATES.fromRow(row)));
  }

  private async write(template: WhatsappTemplate, sql: string, params: unknown[]): Promise<void> {
    try {
      await this.tx.manager.query(sql, params);
    } catch (error) {
      if (isUniqueViolation(error, WHATSAPP_TEMPLATES_NAME_INDEX)) {
        const p = template.toProps();
        throw new AppError('name_taken', {
          message: `a WhatsApp template named ${JSON.stringify(p.name)} in ${p.language} exists in this workspace`,
          issues: [{ path: 'name', message: 'already used by another template of the workspace in this language' }],
        });
      }
      throw error;
    }
  }
}
