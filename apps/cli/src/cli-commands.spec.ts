import 'reflect-metadata';
import { COMMAND_GROUPS, groupsFor } from './cli-commands';

// nest-commander keeps @Command({ name }) under this metadata key (not exported from its index).
const { CommandMeta } = require('nest-commander/src/constants') as { CommandMeta: string };

describe('CLI command catalogue', () => {
  it("every group's names are exactly the @Command names of the classes it loads, each name once", async () => {
    const seen: string[] = [];
    for (const group of COMMAND_GROUPS) {
      const { commands, imports } = await group.load();
      expect(commands.map((command) => (Reflect.getMetadata(CommandMeta, command) as { name: string }).name)).toEqual(group.names);
      if (!group.names.includes('migrate')) expect(imports).toHaveLength(1);
      seen.push(...group.names);
    }
    expect(new Set(seen).size).toBe(seen.length);
  }, 60_000);

  it('a known command loads its own group only; help, no command or an unknown one load them all', () => {
    expect(groupsFor('key:list')).toEqual([COMMAND_GROUPS[0]]);
    expect(groupsFor('wallet:credit').map((g) => g.names)).toEqual([['wallet:credit']]);
    for (const other of [undefined, '--help', 'help', 'teleport', '--format']) expect(groupsFor(other)).toBe(COMMAND_GROUPS);
  });
});
