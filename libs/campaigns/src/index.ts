// Public surface of the campaigns module: what other modules and apps may use.
import { defineMigrations } from '@outreach/platform';
export * from './campaigns.errors';
export * from './campaigns.config';
import { Campaigns1763700002100 } from './infrastructure/migrations/1763700002100-campaigns';
import { CampaignExecution1763700004100 } from './infrastructure/migrations/1763700004100-campaign-execution';
import { CampaignPauseReason1763700009300 } from './infrastructure/migrations/1763700009300-campaign-pause-reason';
import { CampaignRunningSince1763700009400 } from './infrastructure/migrations/1763700009400-campaign-running-since';
import { CampaignContactCountShards1763700007100 } from './infrastructure/migrations/1763700007100-campaign-contact-count-shards';
import { ContactAlternateNumbers1763700008100 } from './infrastructure/migrations/1763700008100-contact-alternate-numbers';
import { ContactRecipientLocale1763700009700 } from './infrastructure/migrations/1763700009700-contact-recipient-locale';
import { ContactTimeline1763700009810 } from './infrastructure/migrations/1763700009810-contact-timeline';
import { ContactSequences1763700011200 } from './infrastructure/migrations/1763700011200-contact-sequences';
import { ContactMessageLegs1763700011000 } from './infrastructure/migrations/1763700011000-contact-message-legs';
import { ContactHandOff1763700011100 } from './infrastructure/migrations/1763700011100-contact-hand-off';
import { InboundRouting1763700011310 } from './infrastructure/migrations/1763700011310-inbound-routing';
import { ContactPendingIndex1763700012000 } from './infrastructure/migrations/1763700012000-contact-pending-index';

export { CampaignsCoreModule, CampaignsModule, CampaignsWorkerModule } from './campaigns.module';
export { TimelineHousekeeping } from './infrastructure/timeline-housekeeping';
export { CampaignEditing, CampaignInput } from './application/campaign-editing.service';
export { CampaignLifecycle, StartRequest } from './application/campaign-lifecycle.service';
export { CampaignLiveEdits, LiveEditInput } from './application/campaign-live-edits.service';
export { CampaignRemessage, RemessageReceipt, REMESSAGE_STATUSES } from './application/campaign-remessage.service';
export { ContactHandOffs, HandOffOutcome, ReplyCandidate } from './application/contact-hand-offs.service';
export {
  AI_CONDITION_KINDS,
  aiConditionsNeeded,
  channelHasRules,
  ConditionVerdicts,
  firstMatchingAction,
  OUTREACH_CONDITION_KINDS,
  OutreachConditionKind,
} from './domain/outreach-rules';
export { CampaignExecution } from './application/campaign-execution.service';
export { JourneyContact, JourneyContacts } from './application/journey-contacts';
export {
  AttemptContact,
  AttemptOutcomeUpdate,
  CampaignLoad,
  CampaignWork,
  ClaimedContact,
  ExecutionCampaign,
  PlacedCall,
} from './application/campaign-execution.ports';
export { CampaignContacts, ExplainedContactView } from './application/campaign-contacts.service';
export { ContactWaitingReasons, LeadWaiting, WaitingContactView } from './application/contact-waiting.service';
export { CampaignLeadReader, LeadContact, LeadContactFilter } from './application/campaign-lead-reader';
export { CampaignPhoneNumbers } from './application/campaign-phone-numbers.service';
export { CampaignTypesService } from './application/campaign-types.service';
export { CampaignViews, CampaignView } from './application/campaign-views';
export { CampaignJob, CampaignQueue, RemessagePayload } from './application/campaign-jobs';
export { ContactImporter, ImportSummary } from './application/contact-importer';
export { ContactTimeline, TimelineEntry, TimelineEventView, TimelinePage } from './application/contact-timeline';
export { TimelinePageResponse, TimelineQueryDto } from './http/dto/timeline.dto';
export { SKIP_REASONS, SkipReason, TIMELINE_EVENT_TYPES, TimelineEventType } from './domain/contact-timeline';
export { UploadIntake } from './application/upload-intake.service';
export { OptionalFileUploadInterceptor, SingleFileUploadInterceptor } from './http/single-file-upload.interceptor';
export { CampaignResponse } from './http/dto/campaign-response.dto';
export { ApiLeadIntake, ApiLeadContactView, NewApiLead, OpenApiCampaign } from './application/api-lead-intake.service';
export { AdmittedCaller, InboundCaller, InboundCampaigns, InboundRoute } from './application/inbound-campaigns';
export { CrmDirectory, EmailReadiness, WhatsappReadiness, WorkflowDirectory } from './application/campaigns.ports';
export { CrmContactIntake, CrmContactInput, CrmContactsAdded, CrmImportDefaults } from './application/crm-contact-intake.service';
export { CrmDirectoryBinding, WorkflowDirectoryBinding } from './infrastructure/unconfigured-channels.adapters';
export { CAMPAIGN_STATUSES, CAMPAIGN_TRANSITIONS, CAMPAIGN_PERMISSIONS } from './domain/campaign-state-machine';
export { CAMPAIGN_CHANNELS, CAMPAIGN_SOURCES, CampaignChannel, CampaignSource, hasVoiceLeg, LIST_SOURCES } from './domain/campaign-kinds';
export {
  CONTACT_STATUSES,
  CONTACT_TRANSITIONS,
  ContactEvent,
  ContactStatus,
  FINAL_CONTACT_STATUSES,
} from './domain/contact-state-machine';
export { numbersLeftAfter, numberToDial } from './domain/contact';
export { channelLegs, CONTACT_LEGS, ContactLeg, currentLeg, isMessageLeg, nextLeg } from './domain/contact-legs';
export { calleeName } from './domain/callee-name';
export { CampaignSettings, OutreachRule } from './domain/campaign-settings';
export { RESERVED_SIGNAL_NAMES } from './domain/extraction-keys';
export { START_CHECKS } from './domain/start-checks';
export { DialSchedule, DialWindowState, dialWindowAt, nextDialOpening, startOfNextLocalDay } from './domain/dial-window';
export { isPublicHoliday, RecipientLocale, recipientLocaleOf } from './domain/recipient-locale';
export {
  DEFAULT_RECIPIENT_HOURS,
  localeKey,
  nextContactOpening,
  nextRecipientOpening,
  RecipientClosure,
  recipientClosureAt,
  RecipientHoursSetting,
  RecipientRules,
  recipientRulesOf,
} from './domain/recipient-hours';
export { contactWaiting, ContactWaiting, dialScheduleOf, WAITING_REASONS, WaitingReason } from './domain/contact-schedule';
export const CAMPAIGNS_MIGRATIONS = defineMigrations('campaigns', [Campaigns1763700002100, CampaignExecution1763700004100, CampaignContactCountShards1763700007100, ContactAlternateNumbers1763700008100, CampaignPauseReason1763700009300, CampaignRunningSince1763700009400, ContactRecipientLocale1763700009700, ContactTimeline1763700009810, ContactMessageLegs1763700011000, ContactHandOff1763700011100, ContactSequences1763700011200, InboundRouting1763700011310, ContactPendingIndex1763700012000]);
