import { Command, Option } from 'nest-commander';
import { MEMBER_STATUSES, MemberAdministration } from '@outreach/workspaces';
import { OperatorCommand } from '../operator-command';
import { parseId, parseOneOf } from '../option-parsers';

interface MemberSetStatusOptions {
  member: string;
  status: string;
}

@Command({
  name: 'member:set-status',
  description: "Activate, suspend or remove a member (their keys stop working unless ACTIVE). Prints {member}.",
})
export class MemberSetStatusCommand extends OperatorCommand<MemberSetStatusOptions> {
  constructor(private readonly members: MemberAdministration) {
    super();
  }

  protected async execute(options: MemberSetStatusOptions) {
    return { member: await this.members.setStatus(options.member, options.status) };
  }

  @Option({ flags: '--member <id>', description: 'member id', required: true })
  parseMember(raw: string): string {
    return parseId('--member', raw);
  }

  @Option({ flags: '--status <status>', description: MEMBER_STATUSES.join('|'), required: true })
  parseStatus(raw: string): string {
    return parseOneOf('--status', raw, MEMBER_STATUSES);
  }
}
