import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AppError, Clock, isE164, isUuid, Outbox, UnitOfWork } from '@outreach/core';
import { WhatsappSender, WhatsappSenderProps } from '../domain/whatsapp-sender';
import { verifySenderJob } from './messaging-jobs';
import { WhatsappCredentials, WhatsappProvider } from './message-provider.port';
import { WhatsappSenderRepository } from './messaging.ports';

/** A sender as the API shows it: exactly the contract's fields, never a credential. */
export interface WhatsappSenderView {
  id: string;
  mode: string;
  status: string;
  numberSource: string;
  isDefault: boolean;
  phoneDisplay: string;
  hasCredentials: boolean;
  connectedAt: string | null;
  verifiedName: string | null;
  qualityRating: string | null;
}

export function whatsappSenderView(sender: WhatsappSender): WhatsappSenderView {
  const p: WhatsappSenderProps = sender.toProps();
  return {
    id: p.id,
    mode: p.mode,
    status: p.status,
    numberSource: p.numberSource,
    isDefault: p.isDefault,
    phoneDisplay: p.phoneDisplay,
    hasCredentials: p.hasCredentials,
    connectedAt: p.connectedAt?.toISOString() ?? null,
    verifiedName: p.verifiedName,
    qualityRating: p.qualityRating,
  };
}

export interface ConnectSenderInput {
  phoneNumber: string;
  phoneDisplay?: string;
  isDefault?: boolean;
  credentials: WhatsappCredentials;
}

const notFound = (id: string) => new AppError('not_found', { message: `no WhatsApp sender ${id}` });

/**
 * The workspace's WhatsApp senders (/whatsapp/senders) and the operator's platform-shared ones.
 * A new sender is CONNECTING with a verification job written to the outbox in the same
 * transaction; the worker's job asks the provider and moves it to CONNECTED or FAILED.
 */
@Injectable()
export class WhatsappSenders {
  private readonly logger = new Logger('WhatsappSenders');

  constructor(
    private readonly senders: WhatsappSenderRepository,
    private readonly provider: WhatsappProvider,
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  async list(workspaceId: string): Promise<WhatsappSenderView[]> {
    return (await this.senders.listByWorkspace(workspaceId)).map(whatsappSenderView);
  }

  async get(workspaceId: string, id: string): Promise<WhatsappSenderView> {
    const sender = await this.senders.findById(workspaceId, id);
    if (!sender) throw notFound(id);
    return whatsappSenderView(sender);
  }

  /** POST /whatsapp/senders: the workspace's own number with its WhatsApp Business credentials. */
  async connectOwn(workspaceId: string, input: ConnectSenderInput): Promise<WhatsappSenderView> {
    return this.add(workspaceId, input.isDefault, (isDefault) =>
      WhatsappSender.connectOwn({ id: randomUUID(), workspaceId, e164: input.phoneNumber, phoneDisplay: input.phoneDisplay, isDefault, now: this.clock.now() }),
      input.credentials,
    );
  }

  /** Operator CLI `whatsapp:add-shared`: a number of the platform's pool, sent with the platform's credentials. */
  async addPlatformShared(input: { workspaceId: string; e164: string; phoneDisplay?: string; isDefault?: boolean }): Promise<WhatsappSenderView> {
    if (!isUuid(input.workspaceId)) throw new AppError('invalid_request', { message: 'workspace must be a UUID' });
    if (!isE164(input.e164)) throw new AppError('invalid_request', { message: `${input.e164} is not an E.164 number (+ and 7 to 15 digits)` });
    if (input.phoneDisplay !== undefined && (input.phoneDisplay.length < 1 || input.phoneDisplay.length > 64)) {
      throw new AppError('invalid_request', { message: 'the display text is 1 to 64 characters' });
    }
    const { workspaceId } = input;
    return this.add(workspaceId, input.isDefault, (isDefault) =>
      WhatsappSender.platformShared({ id: randomUUID(), workspaceId, e164: input.e164, phoneDisplay: input.phoneDisplay, isDefault, now: this.clock.now() }),
      null,
    );
  }

  async update(workspaceId: string, id: string, changes: { phoneDisplay?: string; isDefault?: boolean }): Promise<WhatsappSenderView> {
    if (Object.values(changes).every((v) => v === undefined)) {
      throw new AppError('no_fields_to_update', { message: 'send phoneDisplay or isDefault' });
    }
    return this.uow.run(async () => {
      await this.senders.lockWorkspace(workspaceId);
      const sender = await this.senders.findById(workspaceId, id, { lock: true });
      if (!sender) throw notFound(id);
      sender.edit(changes, this.clock.now());
      if (changes.isDefault) await this.senders.clearDefault(workspaceId, sender.id);
      await this.senders.update(sender);
      return whatsappSenderView(sender);
    });
  }

  /** DELETE: disconnects the sender (its credentials go with it); the oldest other sender becomes the default. */
  async remove(workspaceId: string, id: string): Promise<void> {
    await this.uow.run(async () => {
      await this.senders.lockWorkspace(workspaceId);
      if (!(await this.senders.delete(workspaceId, id))) throw notFound(id);
      await this.senders.ensureDefault(workspaceId);
    });
  }

  /**
   * Worker job: asks the provider to verify a CONNECTING sender. Idempotent: a sender no longer
   * CONNECTING (or gone) is left alone, so a replayed job changes nothing.
   */
  async verify(senderId: string): Promise<void> {
    if (!isUuid(senderId)) return;
    const sender = await this.senders.findAnyById(senderId);
    if (!sender || sender.status !== 'CONNECTING') return;
    const credentials = await this.senders.revealCredentials(sender);
    // The provider call happens outside the transaction: no row lock is held over the network.
    const result = await this.provider.verifySender({ senderId: sender.id, e164: sender.e164, credentials });
    await this.uow.run(async () => {
      const current = await this.senders.findAnyById(senderId, { lock: true });
      if (current?.applyVerification(result, this.clock.now())) {
        await this.senders.update(current);
        this.logger.log(`WhatsApp sender ${senderId} is ${current.status}`);
      }
    });
  }

  private async add(
    workspaceId: string,
    wantsDefault: boolean | undefined,
    build: (isDefault: boolean) => WhatsappSender,
    credentials: WhatsappCredentials | null,
  ): Promise<WhatsappSenderView> {
    return this.uow.run(async () => {
      await this.senders.lockWorkspace(workspaceId);
      const first = (await this.senders.listByWorkspace(workspaceId)).length === 0;
      const sender = build(first || wantsDefault === true);
      if (sender.isDefault) await this.senders.clearDefault(workspaceId, sender.id);
      await this.senders.insert(sender, credentials);
      await this.outbox.enqueue(verifySenderJob(sender.id));
      return whatsappSenderView(sender);
    });
  }
}
