/** A call whose analysis has reached a final state (DONE, SKIPPED, or FAILED with no retry left). */
export interface CallAnalysedEvent {
  callId: string;
  contactId: string | null;
  /** DONE and SKIPPED are final; FAILED only after the last attempt (decisions.md 37.20). */
  analysisStatus: 'DONE' | 'SKIPPED' | 'FAILED';
}

/**
 * The moment a call's analysis is final, handed to whoever waits for it (the workflows module's
 * journey runs, decisions.md 37.20). Calls never imports its listener: it is bound at start.
 */
export abstract class CallAnalysed {
  abstract analysed(event: CallAnalysedEvent): Promise<void>;
}

/** The binding the calls worker calls; the listener binds itself into it (none bound: nothing happens). */
export class CallAnalysedBinding extends CallAnalysed {
  private bound: CallAnalysed | null = null;

  bind(listener: CallAnalysed): void {
    this.bound = listener;
  }

  async analysed(event: CallAnalysedEvent): Promise<void> {
    if (this.bound) await this.bound.analysed(event);
  }
}
