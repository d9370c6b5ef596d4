import { Command, Option } from 'nest-commander';
import { PhoneNumberAdministration } from '@outreach/telephony';
import { OperatorCommand } from '../operator-command';
import { parseId } from '../option-parsers';

interface NumberSyncOptions {
  workspace: string;
  number: string;
}

@Command({
  name: 'number:sync',
  description:
    "Import a number to its carrier's voice provider (Vapi: POST /phone-number); until then its calls there answer 409 phone_number_not_synced. Prints the number with its providerNumberId.",
})
export class NumberSyncCommand extends OperatorCommand<NumberSyncOptions> {
  constructor(private readonly numbers: PhoneNumberAdministration) {
    super();
  }

  protected execute(options: NumberSyncOptions) {
    return this.numbers.syncNumber({ workspaceId: options.workspace, numberId: options.number });
  }

  @Option({ flags: '--workspace <id>', description: 'workspace id', required: true })
  parseWorkspace(raw: string): string {
    return parseId('--workspace', raw);
  }

  @Option({ flags: '--number <id>', description: 'phone number id (number:add prints it)', required: true })
  parseNumber(raw: string): string {
    return parseId('--number', raw);
  }
}
