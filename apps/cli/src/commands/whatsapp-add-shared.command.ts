import { Command, Option } from 'nest-commander';
import { WhatsappSenders } from '@outreach/messaging';
import { OperatorCommand } from '../operator-command';
import { parseId } from '../option-parsers';

interface WhatsappAddSharedOptions {
  workspace: string;
  e164: string;
  display?: string;
  default?: boolean;
}

@Command({
  name: 'whatsapp:add-shared',
  description:
    "Give a workspace a WhatsApp sender on a number of the platform's pool (sent with the platform's credentials). It is CONNECTING until the worker's verification job ran. Prints the sender as GET /whatsapp/senders shows it.",
})
export class WhatsappAddSharedCommand extends OperatorCommand<WhatsappAddSharedOptions> {
  constructor(private readonly senders: WhatsappSenders) {
    super();
  }

  protected execute(options: WhatsappAddSharedOptions) {
    return this.senders.addPlatformShared({ workspaceId: options.workspace, e164: options.e164, phoneDisplay: options.display, isDefault: options.default });
  }

  @Option({ flags: '--workspace <id>', description: 'workspace id', required: true })
  parseWorkspace(raw: string): string {
    return parseId('--workspace', raw);
  }

  @Option({ flags: '--e164 <number>', description: 'the number in E.164, e.g. +14155550123', required: true })
  parseE164(raw: string): string {
    return raw;
  }

  @Option({ flags: '--display <text>', description: 'how the number is shown (default: the E.164 number)' })
  parseDisplay(raw: string): string {
    return raw;
  }

  @Option({ flags: '--default', description: "make it the workspace's default sender (the first sender always is)" })
  parseDefault(): boolean {
    return true;
  }
}
