import { Command, Option } from 'nest-commander';
import { ApiKeyAdministration } from '@outreach/workspaces';
import { OperatorCommand } from '../operator-command';
import { parseId, parseIsoDate, parseScopes } from '../option-parsers';

interface KeyCreateOptions {
  workspace: string;
  name: string;
  scopes?: string[];
  member?: string;
  expiresAt?: Date;
}

@Command({
  name: 'key:create',
  description: 'Issue an API key. Prints {id, key, prefix, scopes, ...}: the only time the key is shown.',
})
export class KeyCreateCommand extends OperatorCommand<KeyCreateOptions> {
  constructor(private readonly keys: ApiKeyAdministration) {
    super();
  }

  protected execute(options: KeyCreateOptions) {
    return this.keys.create({
      workspaceId: options.workspace,
      name: options.name,
      scopes: options.scopes,
      memberId: options.member,
      expiresAt: options.expiresAt,
    });
  }

  @Option({ flags: '--workspace <id>', description: 'workspace id', required: true })
  parseWorkspace(raw: string): string {
    return parseId('--workspace', raw);
  }

  @Option({ flags: '--name <name>', description: 'what the key is for (1-100 characters)', required: true })
  parseName(raw: string): string {
    return raw;
  }

  @Option({
    flags: '--scopes <list>',
    description: 'comma-separated scopes such as campaigns.view,calls.edit, or all; without it the key is scope-less (/v1 routes only)',
  })
  parseScopes(raw: string): string[] {
    return parseScopes('--scopes', raw);
  }

  @Option({ flags: '--member <id>', description: 'the member the key acts for (default: the owner)' })
  parseMember(raw: string): string {
    return parseId('--member', raw);
  }

  @Option({ flags: '--expires-at <iso>', description: 'expiry (ISO-8601, in the future)' })
  parseExpiresAt(raw: string): Date {
    return parseIsoDate('--expires-at', raw);
  }
}
