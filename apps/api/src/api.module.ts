import { Module } from '@nestjs/common';
import { API_GLOBAL_PROVIDERS, IdempotencyModule, PlatformModule } from '@outreach/platform';
import { BillingHttpModule } from '@outreach/billing';
import { DncModule } from '@outreach/dnc';
import { WorkspacesModule } from '@outreach/workspaces';
import { AgentsModule } from '@outreach/agents';
import { FunctionsModule } from '@outreach/functions';
import { CampaignsModule } from '@outreach/campaigns';
import { TelephonyModule } from '@outreach/telephony';
import { ResultsModule } from '@outreach/results';
import { CallsModule } from '@outreach/calls';
// Modules without HTTP routes, loaded for what they declare (migrations, error codes, configuration).
import '@outreach/notifications';

/**
 * The HTTP process: every domain module's controllers over their application services.
 * A new module adds one line to `imports`.
 */
@Module({
  imports: [PlatformModule.forRoot({ role: 'api' }), WorkspacesModule, AgentsModule, FunctionsModule, TelephonyModule, CampaignsModule, IdempotencyModule, BillingHttpModule, DncModule, CallsModule, ResultsModule],
  providers: [...API_GLOBAL_PROVIDERS],
})
export class ApiModule {}
