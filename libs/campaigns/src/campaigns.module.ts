import { InboundCampaigns, InboundCampaignStore } from './application/inbound-campaigns';
import { SqlInboundCampaignStore } from './infrastructure/sql-inbound-campaign.store';
import { Module, OnModuleInit } from '@nestjs/common';
import { AgentReferenceRegistry, AgentsCoreModule } from '@outreach/agents';
import { BillingModule } from '@outreach/billing';
import { MessagingCoreModule } from '@outreach/messaging';
import { TelephonyCoreModule } from '@outreach/telephony';
import { WorkspacesCoreModule } from '@outreach/workspaces';
import { ApiLeadContactStore, ApiLeadIntake } from './application/api-lead-intake.service';
import { CampaignContacts } from './application/campaign-contacts.service';
import { CampaignEditing } from './application/campaign-editing.service';
import { CampaignExecutionRepository } from './application/campaign-execution.ports';
import { CampaignExecution } from './application/campaign-execution.service';
import { CampaignLifecycle } from './application/campaign-lifecycle.service';
import { CampaignLiveEdits } from './application/campaign-live-edits.service';
import { CampaignRemessage } from './application/campaign-remessage.service';
import { ContactHandOffs, HandOffStore } from './application/contact-hand-offs.service';
import { CampaignPhoneNumbers } from './application/campaign-phone-numbers.service';
import { CampaignTypesService } from './application/campaign-types.service';
import { CampaignViews } from './application/campaign-views';
import { CampaignLeadReader } from './application/campaign-lead-reader';
import {
  CampaignPhoneNumberRepository,
  CampaignRepository,
  CampaignTypeRepository,
  ContactRepository,
  CrmDirectory,
  EmailReadiness,
  SpreadsheetReader,
  UploadStore,
  WhatsappReadiness,
  WorkflowDirectory,
} from './application/campaigns.ports';
import { ContactImporter } from './application/contact-importer';
import { ContactTimeline, ContactTimelineStore } from './application/contact-timeline';
import { CrmContactIntake } from './application/crm-contact-intake.service';
import { ContactWaitingReasons } from './application/contact-waiting.service';
import { UploadIntake } from './application/upload-intake.service';
import { CampaignContactsController } from './http/campaign-contacts.controller';
import { CampaignTypesController } from './http/campaign-types.controller';
import { CampaignsController } from './http/campaigns.controller';
import { CampaignLiveOperationsController } from './http/campaign-live-operations.controller';
import { SingleFileUploadInterceptor } from './http/single-file-upload.interceptor';
import { SqlCampaignExecutionRepository } from './infrastructure/sql-campaign-execution.repository';
import { SqlCampaignTypeRepository } from './infrastructure/sql-campaign-type.repository';
import { SqlCampaignRepository } from './infrastructure/sql-campaign.repository';
import { SqlCampaignPhoneNumberRepository, SqlContactRepository } from './infrastructure/sql-contact.repository';
import { SqlUploadStore } from './infrastructure/sql-upload.store';
import { SqlApiLeadContactStore } from './infrastructure/sql-api-lead-contact.store';
import { SqlCampaignLeadReader } from './infrastructure/sql-campaign-lead-reader';
import { SqlContactTimelineStore } from './infrastructure/sql-contact-timeline.store';
import { SqlHandOffStore } from './infrastructure/sql-hand-off.store';
import { TimelineHousekeeping } from './infrastructure/timeline-housekeeping';
import { CsvXlsxSpreadsheetReader } from './infrastructure/spreadsheet.reader';
import { MessagingEmailReadiness, MessagingWhatsappReadiness } from './infrastructure/messaging-readiness.adapters';
import { CrmDirectoryBinding, WorkflowDirectoryBinding } from './infrastructure/unconfigured-channels.adapters';
import { JourneyContacts } from './application/journey-contacts';
import { SqlJourneyContacts } from './infrastructure/sql-journey-contacts';

const applicationServices = [
  CampaignTypesService,
  CampaignViews,
  CampaignEditing,
  CampaignLifecycle,
  CampaignLiveEdits,
  CampaignRemessage,
  ContactHandOffs,
  CampaignContacts,
  CampaignPhoneNumbers,
  CampaignExecution,
  ContactImporter,
  UploadIntake,
  ApiLeadIntake,
  ContactTimeline,
  CrmContactIntake,
  ContactWaitingReasons,
  InboundCampaigns,
];

/** Campaigns, campaign types, contacts and uploads: no controllers, usable by api, worker and cli. */
@Module({
  imports: [WorkspacesCoreModule, BillingModule, AgentsCoreModule, TelephonyCoreModule, MessagingCoreModule],
  providers: [
    ...applicationServices,
    { provide: CampaignRepository, useClass: SqlCampaignRepository },
    { provide: CampaignTypeRepository, useClass: SqlCampaignTypeRepository },
    { provide: ContactRepository, useClass: SqlContactRepository },
    { provide: CampaignPhoneNumberRepository, useClass: SqlCampaignPhoneNumberRepository },
    { provide: CampaignExecutionRepository, useClass: SqlCampaignExecutionRepository },
    { provide: UploadStore, useClass: SqlUploadStore },
    { provide: ApiLeadContactStore, useClass: SqlApiLeadContactStore },
    { provide: InboundCampaignStore, useClass: SqlInboundCampaignStore },
    { provide: SpreadsheetReader, useClass: CsvXlsxSpreadsheetReader },
    { provide: CampaignLeadReader, useClass: SqlCampaignLeadReader },
    { provide: ContactTimelineStore, useClass: SqlContactTimelineStore },
    { provide: HandOffStore, useClass: SqlHandOffStore },
    // Journey campaigns' contacts, for the workflows module's runs (decisions.md 37.12).
    { provide: JourneyContacts, useClass: SqlJourneyContacts },
    // Messaging's senders and templates (issue 12).
    { provide: WhatsappReadiness, useClass: MessagingWhatsappReadiness },
    { provide: EmailReadiness, useClass: MessagingEmailReadiness },
    // Bound by the workflows and crm modules when they start (unbound: nothing configured).
    WorkflowDirectoryBinding,
    { provide: WorkflowDirectory, useExisting: WorkflowDirectoryBinding },
    CrmDirectoryBinding,
    { provide: CrmDirectory, useExisting: CrmDirectoryBinding },
  ],
  exports: [...applicationServices, CampaignLeadReader, JourneyContacts, WhatsappReadiness, EmailReadiness, WorkflowDirectory, WorkflowDirectoryBinding, CrmDirectory, CrmDirectoryBinding],
})
export class CampaignsCoreModule implements OnModuleInit {
  constructor(
    private readonly references: AgentReferenceRegistry,
    private readonly campaigns: CampaignRepository,
  ) {}

  /** Agents answer 409 in_use for an agent a campaign still names, without importing campaigns. */
  onModuleInit(): void {
    this.references.register((workspaceId, agentId) => this.campaigns.referencesAgent(workspaceId, agentId));
  }
}

/** The HTTP face: campaign types, campaigns, lifecycle, contacts, uploads, campaign numbers. */
@Module({
  imports: [CampaignsCoreModule],
  controllers: [CampaignTypesController, CampaignsController, CampaignLiveOperationsController, CampaignContactsController],
  providers: [SingleFileUploadInterceptor],
  exports: [CampaignsCoreModule],
})
export class CampaignsModule {}

/** The worker side: the contact timelines' retention (decisions.md 29.3). */
@Module({
  imports: [CampaignsCoreModule],
  providers: [TimelineHousekeeping],
})
export class CampaignsWorkerModule {}
