/** One campaign contact with its last campaign call: the unit of every count and report row. */
export interface ExportLead {
  contactId: string;
  seq: number;
  phone: string;
  name: string | null;
  fields: Record<string, string>;
  status: string;
  attempts: number;
  lastOutcome: string | null;
  lastAttemptAt: Date | null;
  connectedPhone: string | null;
  createdAt: Date;
  finalCall: {
    callId: string;
    outcome: string | null;
    startedAt: Date;
    durationMs: number | null;
    extraction: Record<string, unknown> | null;
    evaluation: Record<string, unknown> | null;
  } | null;
}
