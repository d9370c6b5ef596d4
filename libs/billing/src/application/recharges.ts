import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, Clock, isUuid, UnitOfWork } from '@outreach/core';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { assertCreditAmount, assertReference } from '../domain/money';
import { Recharge, RechargeProps } from '../domain/recharge';
import { LedgerEntryView, RechargeRepository, WalletRepository } from './wallet.ports';

export interface RechargeView {
  orderId: string;
  status: string;
  amountMinor: number;
  currency: string;
  reference: string | null;
  description: string | null;
  createdAt: string;
  creditedAt: string | null;
}

export interface RechargeReceipt {
  receiptNumber: string;
  orderId: string;
  status: 'CREDITED';
  workspaceId: string;
  workspaceName: string;
  amountMinor: number;
  currency: string;
  reference: string | null;
  description: string | null;
  createdAt: string;
  creditedAt: string;
  ledgerEntryId: string;
  balanceAfterMinor: number;
}

export function rechargeView(r: RechargeProps): RechargeView {
  return {
    orderId: r.id,
    status: r.status,
    amountMinor: r.amountMinor,
    currency: r.currency,
    reference: r.reference,
    description: r.description,
    createdAt: r.createdAt.toISOString(),
    creditedAt: r.creditedAt ? r.creditedAt.toISOString() : null,
  };
}

/** Reads of a workspace's recharges (GET /credits/recharges…). */
@Injectable()
export class RechargeQueries {
  constructor(
    private readonly recharges: RechargeRepository,
    private readonly wallets: WalletRepository,
    private readonly workspaces: WorkspaceAdministration,
  ) {}

  async list(workspaceId: string, offset: number, limit: number): Promise<{ items: RechargeView[]; total: number }> {
    const { items, total } = await this.recharges.list(workspaceId, offset, limit);
    return { items: items.map(rechargeView), total };
  }

  async get(workspaceId: string, orderId: string): Promise<RechargeView> {
    return rechargeView(await this.require(workspaceId, orderId));
  }

  async receipt(workspaceId: string, orderId: string): Promise<RechargeReceipt> {
    const props = await this.require(workspaceId, orderId);
    Recharge.restore(props).assertReceiptAvailable();
    const entry = await this.wallets.findEntry(workspaceId, props.id);
    if (!entry || !props.creditedAt) throw new Error(`credited recharge ${props.id} has no ledger entry`);
    const workspace = await this.workspaces.get(workspaceId);
    return {
      receiptNumber: `RCPT-${props.creditedAt.toISOString().slice(0, 10).replace(/-/g, '')}-${props.id.slice(0, 8).toUpperCase()}`,
      orderId: props.id,
      status: 'CREDITED',
      workspaceId,
      workspaceName: workspace.name,
      amountMinor: props.amountMinor,
      currency: props.currency,
      reference: props.reference,
      description: props.description,
      createdAt: props.createdAt.toISOString(),
      creditedAt: props.creditedAt.toISOString(),
      ledgerEntryId: entry.id,
      balanceAfterMinor: entry.balanceAfterMinor,
    };
  }

  private async require(workspaceId: string, orderId: string): Promise<RechargeProps> {
    if (!isUuid(orderId)) throw new AppError('invalid_order_id', { message: 'orderId must be a UUID' });
    const recharge = await this.recharges.findById(workspaceId, orderId);
    if (!recharge) throw new AppError('recharge_not_found');
    return recharge;
  }
}

/**
 * Operator: an order awaiting payment (PENDING). Nothing reaches the wallet until it is credited
 * (CreditPendingRecharge); until then its receipt answers 409 receipt_not_available.
 */
@Injectable()
export class RecordPendingRecharge {
  constructor(
    private readonly recharges: RechargeRepository,
    private readonly workspaces: WorkspaceAdministration,
    private readonly clock: Clock,
  ) {}

  async execute(input: { workspaceId: string; amountMinor: number; reference?: string; description?: string }): Promise<RechargeView> {
    assertCreditAmount(input.amountMinor);
    assertReference(input.reference);
    const workspace = await this.workspaces.get(input.workspaceId);
    const recharge = Recharge.pending({
      id: randomUUID(),
      workspaceId: workspace.id,
      amountMinor: input.amountMinor,
      currency: workspace.currency,
      reference: input.reference ?? null,
      description: input.description ?? 'Recharge',
      createdAt: this.clock.now(),
    });
    await this.recharges.insert(recharge.toProps());
    return rechargeView(recharge.toProps());
  }
}

/** Operator: the payment of a PENDING recharge arrived: credit the wallet (PENDING → CREDITED). */
@Injectable()
export class CreditPendingRecharge {
  constructor(
    private readonly recharges: RechargeRepository,
    private readonly wallets: WalletRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(input: { workspaceId: string; orderId: string }): Promise<{ recharge: RechargeView; entry: LedgerEntryView; balanceMinor: number }> {
    if (!isUuid(input.orderId)) throw new AppError('invalid_order_id', { message: 'orderId must be a UUID' });
    return this.uow.run(async () => {
      const props = await this.recharges.findById(input.workspaceId, input.orderId, { lock: true });
      if (!props) throw new AppError('recharge_not_found');
      const recharge = Recharge.restore(props);
      const at = this.clock.now();
      recharge.credit(at);
      // The ledger entry takes the recharge's id; the reference stays on the recharge.
      const { entry } = await this.wallets.credit({
        workspaceId: props.workspaceId,
        amountMinor: props.amountMinor,
        currency: props.currency,
        reference: null,
        description: props.description,
        at,
        entryId: props.id,
      });
      await this.recharges.update(recharge.toProps());
      const { balanceMinor } = await this.wallets.balance(props.workspaceId);
      return { recharge: rechargeView(recharge.toProps()), entry, balanceMinor };
    });
  }
}
