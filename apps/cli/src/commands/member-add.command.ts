import { Command, Option } from 'nest-commander';
import { MEMBER_ROLES } from '@outreach/core';
import { MemberAdministration } from '@outreach/workspaces';
import { OperatorCommand } from '../operator-command';
import { parseId, parseOneOf } from '../option-parsers';

interface MemberAddOptions {
  workspace: string;
  email: string;
  role?: string;
}

@Command({ name: 'member:add', description: 'Add a member to a workspace. Prints {member}.' })
export class MemberAddCommand extends OperatorCommand<MemberAddOptions> {
  constructor(private readonly members: MemberAdministration) {
    super();
  }

  protected async execute(options: MemberAddOptions) {
    return { member: await this.members.add({ workspaceId: options.workspace, email: options.email, role: options.role }) };
  }

  @Option({ flags: '--workspace <id>', description: 'workspace id', required: true })
  parseWorkspace(raw: string): string {
    return parseId('--workspace', raw);
  }

  @Option({ flags: '--email <email>', description: "the member's e-mail address", required: true })
  parseEmail(raw: string): string {
    return raw;
  }

  @Option({ flags: '--role <role>', description: `${MEMBER_ROLES.join('|')} (default viewer)` })
  parseRole(raw: string): string {
    return parseOneOf('--role', raw, MEMBER_ROLES);
  }
}
