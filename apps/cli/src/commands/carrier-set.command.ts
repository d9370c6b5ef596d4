import { Command, Option } from 'nest-commander';
import { PhoneNumberAdministration } from '@outreach/telephony';
import { OperatorCommand } from '../operator-command';
import { parseBoolean, parseId } from '../option-parsers';

interface CarrierSetOptions {
  workspace: string;
  carrier: string;
  enabled: boolean;
}

@Command({
  name: 'carrier:set',
  description:
    "Enable or disable a carrier for a workspace. Numbers on a disabled carrier cannot be attached to campaigns and do not count for a start. Prints {workspaceId, carrier, enabled}.",
})
export class CarrierSetCommand extends OperatorCommand<CarrierSetOptions> {
  constructor(private readonly numbers: PhoneNumberAdministration) {
    super();
  }

  protected execute(options: CarrierSetOptions) {
    return this.numbers.setCarrier({ workspaceId: options.workspace, carrier: options.carrier, enabled: options.enabled });
  }

  @Option({ flags: '--workspace <id>', description: 'workspace id', required: true })
  parseWorkspace(raw: string): string {
    return parseId('--workspace', raw);
  }

  @Option({ flags: '--carrier <name>', description: 'carrier name, e.g. sandbox', required: true })
  parseCarrier(raw: string): string {
    return raw;
  }

  @Option({ flags: '--enabled <true|false>', description: 'true to enable, false to disable', required: true })
  parseEnabled(raw: string): boolean {
    return parseBoolean('--enabled', raw);
  }
}
