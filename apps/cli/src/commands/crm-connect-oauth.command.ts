import { Command, Option } from 'nest-commander';
import { CrmConnections } from '@outreach/crm';
import { OperatorCommand } from '../operator-command';
import { parseId } from '../option-parsers';

interface CrmConnectOAuthOptions {
  workspace: string;
  slug: string;
  code: string;
  redirectUri: string;
}

@Command({
  name: 'crm:connect-oauth',
  description:
    "Connect an OAuth CRM (Pipedrive) for a workspace: exchanges the authorization code a person's sign-in returned at the provider's token endpoint, checks the account, stores the tokens sealed. Prints the connection as GET /crm/connections/{id} shows it.",
})
export class CrmConnectOAuthCommand extends OperatorCommand<CrmConnectOAuthOptions> {
  constructor(private readonly connections: CrmConnections) {
    super();
  }

  protected execute(options: CrmConnectOAuthOptions) {
    return this.connections.connectOAuth(options.workspace, options.slug, { code: options.code, redirectUri: options.redirectUri });
  }

  @Option({ flags: '--workspace <id>', description: 'workspace id', required: true })
  parseWorkspace(raw: string): string {
    return parseId('--workspace', raw);
  }

  @Option({ flags: '--slug <slug>', description: 'an OAUTH provider of GET /crm/providers (pipedrive)', required: true })
  parseSlug(raw: string): string {
    return raw;
  }

  @Option({ flags: '--code <code>', description: "the authorization code of the person's sign-in (used once)", required: true })
  parseCode(raw: string): string {
    return raw;
  }

  @Option({ flags: '--redirect-uri <uri>', description: 'the redirect URI the sign-in was started with (the provider checks it)', required: true })
  parseRedirectUri(raw: string): string {
    return raw;
  }
}
