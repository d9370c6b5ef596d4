import { CampaignSpend } from '../application/campaign-spend';
import { CreditStatus } from '../application/credit-status';
import { TariffRates, Tariffs } from '../application/tariffs';
import { DebitInput, WalletDebits } from '../application/wallet-debits.use-case';
import { DebitManyResult } from '../application/wallet.ports';

/** Tariffs at fixed rates; the prices still come from the domain's tariff arithmetic. */
export class FixedTariffs extends Tariffs {
  constructor(public fixed: TariffRates = { voiceMinuteMinor: 10, messageMinor: 1 }) {
    super(null as never, null as never, null as never);
  }

  override async rates(): Promise<TariffRates> {
    return { ...this.fixed };
  }
}

/** Wallet debits kept in order, each once per (workspace, kind, reference), with running balances. */
export class RecordingWalletDebits extends WalletDebits {
  readonly debits: DebitInput[] = [];
  readonly balances = new Map<string, number>();

  constructor() {
    super(null as never, null as never, null as never, null as never);
  }

  override async debit(input: DebitInput): Promise<{ balanceMinor: number; entryId: string; replayed: boolean }> {
    const index = this.debits.findIndex((d) => d.workspaceId === input.workspaceId && d.kind === input.kind && d.reference === input.reference);
    if (index < 0) {
      this.debits.push({ ...input });
      this.balances.set(input.workspaceId, (this.balances.get(input.workspaceId) ?? 0) - input.amountMinor);
    }
    return { balanceMinor: this.balances.get(input.workspaceId) ?? 0, entryId: String(index < 0 ? this.debits.length : index + 1), replayed: index >= 0 };
  }

  override async debitMany(inputs: readonly DebitInput[]): Promise<DebitManyResult[]> {
    const replays: boolean[] = [];
    for (const input of inputs) replays.push((await this.debit(input)).replayed);
    return replays.map((replayed) => ({ replayed, balanceMinor: this.balances.get(inputs[0].workspaceId) ?? 0 }));
  }
}

/** Whether a workspace may spend, as the spec says (default: yes). */
export class FixedCreditStatus extends CreditStatus {
  readonly broke = new Set<string>();

  constructor() {
    super(null as never, null as never);
  }

  override async canSpend(workspaceId: string): Promise<boolean> {
    return !this.broke.has(workspaceId);
  }
}

/** A campaign's spend as the debits a RecordingWalletDebits holds for it (the budget's reading). */
export class RecordedCampaignSpend extends CampaignSpend {
  constructor(private readonly debits: RecordingWalletDebits) {
    super(null as never);
  }

  override async spentMinor(campaignId: string): Promise<number> {
    return this.debits.debits.filter((d) => d.campaignId === campaignId).reduce((sum, d) => sum + d.amountMinor, 0);
  }
}
