import type { ModuleMetadata, Type } from '@nestjs/common';

/*
 * Which commands exist and what each needs, without loading any of them. A CLI run boots only
 * the group of the command it was given: its command classes and the one module that provides
 * what they inject (the workspaces module for key:list, not the calls engine). Loading a module's
 * code is most of a command's time, so this is what keeps a command quick. `migrate` loads every
 * module (each registers its migrations as it loads); help and unknown names load every group, so
 * commander lists and suggests every command.
 */

export interface CommandGroup {
  /** The names of the group's commands, as their @Command({ name }) says (a test checks it). */
  names: readonly string[];
  load(): Promise<{ commands: Type[]; imports: NonNullable<ModuleMetadata['imports']> }>;
}

export const COMMAND_GROUPS: readonly CommandGroup[] = [
  {
    names: [
      'workspace:create',
      'workspace:get',
      'workspace:set-status',
      'workspace:update',
      'member:add',
      'member:set-status',
      'key:create',
      'key:revoke',
      'key:list',
    ],
    async load() {
      const [workspaces, create, get, setStatus, update, memberAdd, memberSetStatus, keyCreate, keyRevoke, keyList] = await Promise.all([
        import('@outreach/workspaces'),
        import('./commands/workspace-create.command'),
        import('./commands/workspace-get.command'),
        import('./commands/workspace-set-status.command'),
        import('./commands/workspace-update.command'),
        import('./commands/member-add.command'),
        import('./commands/member-set-status.command'),
        import('./commands/key-create.command'),
        import('./commands/key-revoke.command'),
        import('./commands/key-list.command'),
      ]);
      return {
        imports: [workspaces.WorkspacesCoreModule],
        commands: [
          create.WorkspaceCreateCommand,
          get.WorkspaceGetCommand,
          setStatus.WorkspaceSetStatusCommand,
          update.WorkspaceUpdateCommand,
          memberAdd.MemberAddCommand,
          memberSetStatus.MemberSetStatusCommand,
          keyCreate.KeyCreateCommand,
          keyRevoke.KeyRevokeCommand,
          keyList.KeyListCommand,
        ],
      };
    },
  },
  {
    names: ['wallet:credit'],
    async load() {
      const [billing, credit] = await Promise.all([import('@outreach/billing'), import('./commands/wallet-credit.command')]);
      return { imports: [billing.BillingModule], commands: [credit.WalletCreditCommand] };
    },
  },
  {
    names: ['number:add', 'number:sync', 'carrier:set', 'carrier:configure'],
    async load() {
      const [telephony, numberAdd, numberSync, carrierSet, carrierConfigure] = await Promise.all([
        import('@outreach/telephony'),
        import('./commands/number-add.command'),
        import('./commands/number-sync.command'),
        import('./commands/carrier-set.command'),
        import('./commands/carrier-configure.command'),
      ]);
      return {
        imports: [telephony.TelephonyCoreModule],
        commands: [numberAdd.NumberAddCommand, numberSync.NumberSyncCommand, carrierSet.CarrierSetCommand, carrierConfigure.CarrierConfigureCommand],
      };
    },
  },
  {
    names: ['whatsapp:add-shared'],
    async load() {
      const [messaging, addShared] = await Promise.all([import('@outreach/messaging'), import('./commands/whatsapp-add-shared.command')]);
      return { imports: [messaging.MessagingCoreModule], commands: [addShared.WhatsappAddSharedCommand] };
    },
  },
  {
    names: ['crm:connect-oauth'],
    async load() {
      const [crm, connectOAuth] = await Promise.all([import('@outreach/crm'), import('./commands/crm-connect-oauth.command')]);
      return { imports: [crm.CrmCoreModule], commands: [connectOAuth.CrmConnectOAuthCommand] };
    },
  },
  {
    names: ['call:set-metric'],
    async load() {
      const [calls, setMetric] = await Promise.all([import('@outreach/calls'), import('./commands/call-set-metric.command')]);
      return { imports: [calls.CallsServicesModule], commands: [setMetric.CallSetMetricCommand] };
    },
  },
  {
    names: ['call:simulate-inbound'],
    async load() {
      // The engine's configuration too: an admitted call's attempt deadline is REAPER_GRACE_SECONDS past the agent's limit.
      const [calls, simulate] = await Promise.all([import('@outreach/calls'), import('./commands/call-simulate-inbound.command'), import('@outreach/engine')]);
      return { imports: [calls.CallEventsModule], commands: [simulate.CallSimulateInboundCommand] };
    },
  },
  {
    names: ['notification:list'],
    async load() {
      const [notifications, list] = await Promise.all([import('@outreach/notifications'), import('./commands/notification-list.command')]);
      return { imports: [notifications.NotificationsCoreModule], commands: [list.NotificationListCommand] };
    },
  },
  {
    names: ['migrate'],
    async load() {
      const [, migrate] = await Promise.all([import('./service-modules'), import('./commands/migrate.command')]);
      return { imports: [], commands: [migrate.MigrateCommand] };
    },
  },
];

/** The groups to load for a command line whose first argument is `commandName`. */
export function groupsFor(commandName: string | undefined): readonly CommandGroup[] {
  const group = COMMAND_GROUPS.find((g) => commandName !== undefined && g.names.includes(commandName));
  return group ? [group] : COMMAND_GROUPS;
}
