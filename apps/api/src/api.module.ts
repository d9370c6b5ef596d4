import { Module } from '@nestjs/common';
import { API_GLOBAL_PROVIDERS, PlatformModule } from '@outreach/platform';
import { WorkspacesModule } from '@outreach/workspaces';
import { AgentsModule } from '@outreach/agents';
import { FunctionsModule } from '@outreach/functions';
import { CampaignsModule } from '@outreach/campaigns';
import { TelephonyModule } from '@outreach/telephony';
import { ALL_MIGRATIONS } from '../../common/src/migrations';

/**
 * The HTTP process: every domain module's controllers over their application services.
 * A new module adds one line to `imports`.
 */
@Module({
  imports: [PlatformModule.forRoot({ role: 'api', migrations: ALL_MIGRATIONS }), WorkspacesModule, AgentsModule, FunctionsModule, TelephonyModule, CampaignsModule],
  providers: [...API_GLOBAL_PROVIDERS],
})
export class ApiModule {}
