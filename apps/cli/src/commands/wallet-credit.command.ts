import { Command, Option } from 'nest-commander';
import { CreditWallet } from '@outreach/billing';
import { OperatorCommand } from '../operator-command';
import { parseId, parseInteger } from '../option-parsers';

interface WalletCreditOptions {
  workspace: string;
  amount: number;
  reference?: string;
  description?: string;
}

@Command({
  name: 'wallet:credit',
  description:
    'Credit a workspace wallet. With a --reference already used, nothing changes and the first entry is shown (replayed). Prints {entry, balanceMinor, replayed}.',
})
export class WalletCreditCommand extends OperatorCommand<WalletCreditOptions> {
  constructor(private readonly creditWallet: CreditWallet) {
    super();
  }

  protected execute(options: WalletCreditOptions) {
    return this.creditWallet.execute({
      workspaceId: options.workspace,
      amountMinor: options.amount,
      reference: options.reference,
      description: options.description,
    });
  }

  @Option({ flags: '--workspace <id>', description: 'workspace id', required: true })
  parseWorkspace(raw: string): string {
    return parseId('--workspace', raw);
  }

  @Option({ flags: '--amount <minor>', description: 'amount in minor units of the workspace currency (e.g. cents)', required: true })
  parseAmount(raw: string): number {
    return parseInteger('--amount', raw);
  }

  @Option({ flags: '--reference <ref>', description: 'idempotency reference (1-200 characters), e.g. an invoice number' })
  parseReference(raw: string): string {
    return raw;
  }

  @Option({ flags: '--description <text>', description: 'ledger description (default "Operator credit")' })
  parseDescription(raw: string): string {
    return raw;
  }
}
