import { Command, Option } from 'nest-commander';
import { PhoneNumberAdministration } from '@outreach/telephony';
import { OperatorCommand } from '../operator-command';
import { parseId } from '../option-parsers';

interface NumberAddOptions {
  workspace: string;
  e164: string;
  carrier?: string;
  inbound?: boolean;
}

@Command({
  name: 'number:add',
  description:
    'Give a workspace a phone number its campaigns can call from (E.164, unique across the service). Prints the number {id, e164, carrier, carrierEnabled, inbound}.',
})
export class NumberAddCommand extends OperatorCommand<NumberAddOptions> {
  constructor(private readonly numbers: PhoneNumberAdministration) {
    super();
  }

  protected execute(options: NumberAddOptions) {
    return this.numbers.add({ workspaceId: options.workspace, e164: options.e164, carrier: options.carrier, inbound: options.inbound });
  }

  @Option({ flags: '--workspace <id>', description: 'workspace id', required: true })
  parseWorkspace(raw: string): string {
    return parseId('--workspace', raw);
  }

  @Option({ flags: '--e164 <number>', description: 'the number in E.164, e.g. +14155550123', required: true })
  parseE164(raw: string): string {
    return raw;
  }

  @Option({ flags: '--carrier <name>', description: 'carrier name (default sandbox)' })
  parseCarrier(raw: string): string {
    return raw;
  }

  @Option({ flags: '--inbound', description: 'the number can also receive calls' })
  parseInbound(): boolean {
    return true;
  }
}
