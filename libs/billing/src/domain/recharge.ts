import { AppError } from '@outreach/core';

/**
 * A recharge is a top-up order. An operator credit is a recharge that is CREDITED at once; a
 * PENDING one (an order awaiting payment) is credited later. Its id is the id of the ledger
 * entry that credits it, so "orderId" names both.
 */
export const RECHARGE_STATUSES = ['PENDING', 'CREDITED'] as const;
export type RechargeStatus = (typeof RECHARGE_STATUSES)[number];

type RechargeEvent = 'credit';

/** The state machine, as a table: event → the statuses it leaves from and the one it reaches. */
const TRANSITIONS: Record<RechargeEvent, { from: readonly RechargeStatus[]; to: RechargeStatus }> = {
  credit: { from: ['PENDING'], to: 'CREDITED' },
};

export interface RechargeProps {
  id: string;
  workspaceId: string;
  status: RechargeStatus;
  amountMinor: number;
  currency: string;
  reference: string | null;
  description: string | null;
  createdAt: Date;
  creditedAt: Date | null;
}

export class Recharge {
  private constructor(private props: RechargeProps) {}

  static restore(props: RechargeProps): Recharge {
    return new Recharge({ ...props });
  }

  static pending(input: Omit<RechargeProps, 'status' | 'creditedAt'>): Recharge {
    return new Recharge({ ...input, status: 'PENDING', creditedAt: null });
  }

  static credited(input: Omit<RechargeProps, 'status' | 'creditedAt'>): Recharge {
    return new Recharge({ ...input, status: 'CREDITED', creditedAt: input.createdAt });
  }

  get id(): string {
    return this.props.id;
  }

  get status(): RechargeStatus {
    return this.props.status;
  }

  /** PENDING → CREDITED, once the money is on the wallet. */
  credit(now: Date): void {
    this.apply('credit');
    this.props.creditedAt = now;
  }

  /** A receipt exists only for money that reached the wallet. */
  assertReceiptAvailable(): void {
    if (this.props.status !== 'CREDITED') {
      throw new AppError('receipt_not_available', { message: `Recharge is ${this.props.status}, not CREDITED yet` });
    }
  }

  toProps(): RechargeProps {
    return { ...this.props };
  }

  private apply(event: RechargeEvent): void {
    const rule = TRANSITIONS[event];
    if (!rule.from.includes(this.props.status)) {
      throw new AppError('invalid_request', { message: `Cannot ${event} a ${this.props.status} recharge` });
    }
    this.props.status = rule.to;
  }
}
