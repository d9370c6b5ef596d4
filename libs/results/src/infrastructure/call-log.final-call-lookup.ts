import { Injectable } from '@nestjs/common';
import { CallLog } from '@outreach/calls';
import { FinalCallLookup } from '../application/results.ports';
import { AnalysisFacts, FinalCallFacts } from '../domain/lead-result';

/** Reads the final call through the calls module's CallLog. */
@Injectable()
export class CallLogFinalCallLookup extends FinalCallLookup {
  constructor(private readonly calls: CallLog) {
    super();
  }

  async finalCall(workspaceId: string, contactId: string, callId: string | null): Promise<{ call: FinalCallFacts; analysis: AnalysisFacts } | null> {
    if (!callId) return null;
    const view = await this.calls.get(workspaceId, callId);
    if (!view || view.contactId !== contactId) return null;
    return {
      call: {
        id: view.id,
        toNumber: view.toNumber,
        status: view.status,
        outcome: view.outcome,
        providerDisposition: view.providerDisposition,
        attemptNumber: view.attemptNumber,
        answeredAt: view.answeredAt ? new Date(view.answeredAt) : null,
        endedAt: view.endedAt ? new Date(view.endedAt) : null,
        durationMs: view.durationMs ?? 0,
      },
      analysis: { status: view.analysisStatus, evaluation: view.evaluation ?? {}, extraction: view.extraction ?? {} },
    };
  }
}
