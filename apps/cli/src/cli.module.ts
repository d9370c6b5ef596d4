import { Module } from '@nestjs/common';
import { BillingModule } from '@outreach/billing';
import { CallsServicesModule } from '@outreach/calls';
import { NotificationsCoreModule } from '@outreach/notifications';
import { PlatformModule } from '@outreach/platform';
import { TelephonyCoreModule } from '@outreach/telephony';
import { WorkspacesCoreModule } from '@outreach/workspaces';
// The service's other modules, loaded for what they declare about themselves (migrations, error
// codes, configuration keys), so `migrate` applies the whole schema. One line per module.
import '@outreach/agents';
import '@outreach/campaigns';
import '@outreach/dnc';
import '@outreach/engine';
import '@outreach/functions';
import '@outreach/results';
import { CliProgram } from './cli-program';
import { CallSetMetricCommand } from './commands/call-set-metric.command';
import { CarrierSetCommand } from './commands/carrier-set.command';
import { KeyCreateCommand } from './commands/key-create.command';
import { KeyListCommand } from './commands/key-list.command';
import { KeyRevokeCommand } from './commands/key-revoke.command';
import { MemberAddCommand } from './commands/member-add.command';
import { MemberSetStatusCommand } from './commands/member-set-status.command';
import { MigrateCommand } from './commands/migrate.command';
import { NotificationListCommand } from './commands/notification-list.command';
import { NumberAddCommand } from './commands/number-add.command';
import { WalletCreditCommand } from './commands/wallet-credit.command';
import { WorkspaceCreateCommand } from './commands/workspace-create.command';
import { WorkspaceGetCommand } from './commands/workspace-get.command';
import { WorkspaceSetStatusCommand } from './commands/workspace-set-status.command';
import { WorkspaceUpdateCommand } from './commands/workspace-update.command';

/** The operator CLI: what the spec calls "issued by the service operator", over the same use cases. */
@Module({
  imports: [PlatformModule.forRoot({ role: 'cli' }), WorkspacesCoreModule, BillingModule, TelephonyCoreModule, CallsServicesModule, NotificationsCoreModule],
  providers: [
    CliProgram,
    WorkspaceCreateCommand,
    WorkspaceSetStatusCommand,
    WorkspaceUpdateCommand,
    WorkspaceGetCommand,
    MemberAddCommand,
    MemberSetStatusCommand,
    KeyCreateCommand,
    KeyRevokeCommand,
    KeyListCommand,
    NotificationListCommand,
    WalletCreditCommand,
    MigrateCommand,
    NumberAddCommand,
    CarrierSetCommand,
    CallSetMetricCommand,
  ],
})
export class CliModule {}
