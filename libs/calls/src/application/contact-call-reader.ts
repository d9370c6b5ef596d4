/** The last campaign call of a contact, as reports show it: analysis with the operator's overrides applied. */
export interface ContactFinalCall {
  callId: string;
  contactId: string;
  outcome: string | null;
  startedAt: Date;
  durationMs: number | null;
  /** Extracted values by key (null when the call was not analysed). */
  extraction: Record<string, unknown> | null;
  /** Evaluation metric values by key, metric overrides applied (null when not analysed and not overridden). */
  evaluation: Record<string, unknown> | null;
}

/**
 * Batch reads of contacts' last campaign calls, for other modules' reports (exports): one query per
 * page of contacts. Implemented over the calls table by the calls module.
 */
export abstract class ContactCallReader {
  /** The latest campaign call (by start) of each contact that has one, keyed by contact id. */
  abstract finalCalls(workspaceId: string, contactIds: readonly string[]): Promise<Map<string, ContactFinalCall>>;
}
