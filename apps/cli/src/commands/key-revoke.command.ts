import { Command, Option } from 'nest-commander';
import { ApiKeyAdministration } from '@outreach/workspaces';
import { OperatorCommand } from '../operator-command';
import { parseId } from '../option-parsers';

interface KeyRevokeOptions {
  id: string;
}

@Command({ name: 'key:revoke', description: 'Revoke an API key (idempotent). Prints {id, revokedAt}.' })
export class KeyRevokeCommand extends OperatorCommand<KeyRevokeOptions> {
  constructor(private readonly keys: ApiKeyAdministration) {
    super();
  }

  protected execute(options: KeyRevokeOptions) {
    return this.keys.revoke(options.id);
  }

  @Option({ flags: '--id <id>', description: 'key id', required: true })
  parseKeyId(raw: string): string {
    return parseId('--id', raw);
  }
}
