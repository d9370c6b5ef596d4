// Public surface of the results module: lead push, lead results, result webhooks, API logs.
import { defineMigrations } from '@outreach/platform';
export * from './results.errors';
export * from './results.config';
import { Results1763700006100 } from './infrastructure/migrations/1763700006100-results';

export { ResultsCoreModule, ResultsModule, ResultsWorkerModule } from './results.module';
export { PushLead, LeadPushInput, LeadPushOutcome } from './application/push-lead.use-case';
export { RecordLeadResult } from './application/record-lead-result.use-case';
export { DeliverResults, AttemptReport } from './application/deliver-results.use-case';
export { ApiLogs } from './application/api-logs.service';
export { ResultsHousekeeping } from './application/results-housekeeping';
export { ResultWebhooks } from './application/result-webhooks.service';
export { FinalCallLookup, HostResolver, NewLeadStatement, NewLeadWrite, WebhookSender } from './application/results.ports';
export { LeadFinalPayload, leadFinalJob, ResultsJob, ResultsQueue } from './application/results-jobs';
export { LEAD_RESULT_TYPE, LeadResultEnvelope } from './domain/lead-result';
export { LeadJourneys, LeadJourneysBinding } from './application/lead-journeys';
export { WebhookSigning } from './application/webhook-signing';
export { signatureHeader, signWebhook } from './domain/webhook-signature';
export const RESULTS_MIGRATIONS = defineMigrations('results', [Results1763700006100]);
