// Lead results as the use cases write them, for specs that need stored results.
import { randomUUID } from 'node:crypto';
import { buildLeadResult, LeadResultEnvelope } from '../domain/lead-result';

export function aLeadResult(input: { campaignId: string; leadId?: string; resultId?: string; createdAt: Date; status?: string }): LeadResultEnvelope {
  return buildLeadResult({
    resultId: input.resultId ?? randomUUID(),
    createdAt: input.createdAt,
    leadId: input.leadId ?? randomUUID(),
    campaignId: input.campaignId,
    idempotencyKey: `key-${input.leadId ?? 'x'}`,
    lead: { phone: '+14155550100', name: 'Ann', fields: { plan: 'gold' } },
    contactStatus: input.status ?? 'COMPLETED',
    lastOutcome: 'interested',
    attempts: 1,
    connectedPhone: null,
    finalCall: null,
    analysis: null,
  });
}
