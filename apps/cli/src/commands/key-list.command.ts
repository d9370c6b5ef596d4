import { Command, Option } from 'nest-commander';
import { ApiKeyAdministration } from '@outreach/workspaces';
import { OperatorCommand } from '../operator-command';
import { parseId } from '../option-parsers';

interface KeyListOptions {
  workspace: string;
}

@Command({ name: 'key:list', description: "List a workspace's API keys (never their secrets). Prints {keys}." })
export class KeyListCommand extends OperatorCommand<KeyListOptions> {
  constructor(private readonly keys: ApiKeyAdministration) {
    super();
  }

  protected async execute(options: KeyListOptions) {
    const keys = await this.keys.list(options.workspace);
    return {
      keys: keys.map((key) => ({
        id: key.id,
        name: key.name,
        prefix: key.prefix,
        scopes: key.scopes,
        memberId: key.memberId,
        expiresAt: key.expiresAt?.toISOString() ?? null,
        revokedAt: key.revokedAt?.toISOString() ?? null,
        lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
        createdAt: key.createdAt.toISOString(),
      })),
    };
  }

  @Option({ flags: '--workspace <id>', description: 'workspace id', required: true })
  parseWorkspace(raw: string): string {
    return parseId('--workspace', raw);
  }
}
