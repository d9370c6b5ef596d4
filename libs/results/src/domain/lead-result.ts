/**
 * The `api.lead.result` envelope (spec "Lead result"): written once when an API lead reaches a
 * final state, stored as written and never changed.
 */
export const LEAD_RESULT_TYPE = 'api.lead.result';
export const LEAD_RESULT_API_VERSION = '1.0';

export interface FinalCallFacts {
  id: string;
  /** The number the call dialled: the lead's phone, or one of its alternates (decisions.md 16.19). */
  toNumber: string;
  status: string;
  outcome: string | null;
  providerDisposition: string | null;
  attemptNumber: number;
  answeredAt: Date | null;
  endedAt: Date | null;
  durationMs: number;
}

export interface AnalysisFacts {
  status: string;
  evaluation: Record<string, unknown>;
  extraction: Record<string, unknown>;
}

export interface LeadResultEnvelope {
  id: string;
  type: typeof LEAD_RESULT_TYPE;
  apiVersion: typeof LEAD_RESULT_API_VERSION;
  createdAt: string;
  data: {
    leadId: string;
    campaignId: string;
    idempotencyKey: string;
    lead: { phone: string; name: string | null; fields: Record<string, unknown> };
    status: string;
    disposition: string;
    attempts: number;
    finalCall: {
      id: string;
      status: string;
      outcome: string | null;
      providerDisposition: string | null;
      attemptNumber: number;
      answeredAt: string | null;
      endedAt: string | null;
      durationMs: number;
      /** The number the call dialled: the lead's phone or one of its alternates (decisions.md 16.19). */
      toNumber: string;
    } | null;
    analysis: AnalysisFacts;
    /** Journeys (workflows) are not built: always null until they are. */
    /** A journey campaign's run (decisions.md 37.13), else null. */
    journey: Record<string, unknown> | null;
    /** The number on which a person answered (the lead's phone or an alternate), null when nobody did. */
    connectedPhone: string | null;
    /**
     * The lead's message leg (decisions.md 33): its channel and what became of its message (sent,
     * delivered, read, replied, undelivered, provider_unavailable, opted_out…); null without one.
     * Absent from results written before message legs.
     */
    message?: { channel: 'WHATSAPP' | 'EMAIL'; outcome: string } | null;
  };
}

/**
 * The contact statuses that end a lead (campaigns' FINAL_CONTACT_STATUSES). HAND_OFF: an outreach
 * rule handed the lead to a person before its automated legs were done (decisions.md 34.5).
 */
export const FINAL_LEAD_STATUSES = ['COMPLETED', 'FAILED', 'DO_NOT_CALL', 'HAND_OFF'] as const;

export function isFinalLeadStatus(status: string): boolean {
  return (FINAL_LEAD_STATUSES as readonly string[]).includes(status);
}

/** Analysis of a lead whose final state came without a call (e.g. do-not-call). */
export const NO_ANALYSIS: AnalysisFacts = { status: 'SKIPPED', evaluation: {}, extraction: {} };

export interface LeadResultFacts {
  resultId: string;
  createdAt: Date;
  leadId: string;
  campaignId: string;
  idempotencyKey: string;
  lead: { phone: string; name: string | null; fields: Record<string, unknown> };
  /** The contact's final status (COMPLETED, FAILED, DO_NOT_CALL, HAND_OFF). */
  contactStatus: string;
  /** The contact's last outcome as the engine recorded it. */
  lastOutcome: string | null;
  attempts: number;
  connectedPhone: string | null;
  /** The lead's message leg and its outcome (decisions.md 33), null when it had none. */
  message?: { channel: 'WHATSAPP' | 'EMAIL'; outcome: string } | null;
  finalCall: FinalCallFacts | null;
  analysis: AnalysisFacts | null;
  /** The lead's journey (a journey campaign's run), null otherwise. */
  journey?: Record<string, unknown> | null;
}

/**
 * Builds the envelope. `status` is the final status in lower case (completed, failed,
 * do_not_call, hand_off); `disposition` the last outcome the engine recorded, else the final call's
 * outcome, else the status.
 */
export function buildLeadResult(f: LeadResultFacts): LeadResultEnvelope {
  if (!isFinalLeadStatus(f.contactStatus)) throw new Error(`lead ${f.leadId} is not final (${f.contactStatus})`);
  const status = f.contactStatus.toLowerCase();
  const call = f.finalCall;
  return {
    id: f.resultId,
    type: LEAD_RESULT_TYPE,
    apiVersion: LEAD_RESULT_API_VERSION,
    createdAt: f.createdAt.toISOString(),
    data: {
      leadId: f.leadId,
      campaignId: f.campaignId,
      idempotencyKey: f.idempotencyKey,
      lead: { phone: f.lead.phone, name: f.lead.name, fields: f.lead.fields },
      status,
      disposition: f.lastOutcome ?? call?.outcome ?? status,
      attempts: Math.max(f.attempts, call?.attemptNumber ?? 0),
      finalCall: call
        ? {
            id: call.id,
            status: call.status,
            outcome: call.outcome,
            providerDisposition: call.providerDisposition,
            attemptNumber: call.attemptNumber,
            answeredAt: call.answeredAt?.toISOString() ?? null,
            endedAt: call.endedAt?.toISOString() ?? null,
            durationMs: call.durationMs,
            toNumber: call.toNumber,
          }
        : null,
      analysis: f.analysis ?? NO_ANALYSIS,
      journey: f.journey ?? null,
      connectedPhone: f.connectedPhone,
      message: f.message ?? null,
    },
  };
}

/**
 * The envelope with its members in the spec's order. Postgres jsonb keeps members sorted its own
 * way; every reader rebuilds this order so GET and webhook bodies read the same way.
 */
export function envelopeInSpecOrder(e: LeadResultEnvelope): LeadResultEnvelope {
  const d = e.data;
  const c = d.finalCall;
  return {
    id: e.id,
    type: e.type,
    apiVersion: e.apiVersion,
    createdAt: e.createdAt,
    data: {
      leadId: d.leadId,
      campaignId: d.campaignId,
      idempotencyKey: d.idempotencyKey,
      lead: { phone: d.lead.phone, name: d.lead.name, fields: d.lead.fields },
      status: d.status,
      disposition: d.disposition,
      attempts: d.attempts,
      finalCall: c
        ? {
            id: c.id,
            status: c.status,
            outcome: c.outcome,
            providerDisposition: c.providerDisposition,
            attemptNumber: c.attemptNumber,
            answeredAt: c.answeredAt,
            endedAt: c.endedAt,
            durationMs: c.durationMs,
            toNumber: c.toNumber,
          }
        : null,
      analysis: { status: d.analysis.status, evaluation: d.analysis.evaluation, extraction: d.analysis.extraction },
      journey: journeyInSpecOrder(d.journey),
      // Beyond the spec's members (decisions.md 16.19), after them; absent from results written before.
      connectedPhone: d.connectedPhone,
      ...(d.message !== undefined ? { message: d.message } : {}),
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the journey is the workflows module's object, re-ordered member by member
type Loose = Record<string, any>;

/** The journey object (decisions.md 37.13) with its members, its steps' and their calls' in the contract's order. */
function journeyInSpecOrder(journey: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!journey) return null;
  const j = journey as Loose;
  return {
    runId: j.runId,
    workflowId: j.workflowId,
    status: j.status,
    endLabel: j.endLabel,
    failureReason: j.failureReason,
    startedAt: j.startedAt,
    endedAt: j.endedAt,
    tags: j.tags,
    steps: ((j.steps ?? []) as Loose[]).map((s) => ({
      nodeId: s.nodeId,
      label: s.label,
      type: s.type,
      actionKind: s.actionKind,
      status: s.status,
      error: s.error,
      startedAt: s.startedAt,
      endedAt: s.endedAt,
      call: s.call
        ? {
            id: s.call.id,
            status: s.call.status,
            outcome: s.call.outcome,
            providerDisposition: s.call.providerDisposition,
            answeredAt: s.call.answeredAt,
            endedAt: s.call.endedAt,
            durationMs: s.call.durationMs,
            extraction: s.call.extraction,
          }
        : null,
      port: s.port,
    })),
  };
}
