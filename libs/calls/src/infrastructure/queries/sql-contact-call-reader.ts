import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import { ContactCallReader, ContactFinalCall } from '../../application/contact-call-reader';
import { CALLS } from '../persistence/call.table';

const c = CALLS.c;
const FIELDS = ['id', 'contactId', 'outcome', 'startedAt', 'durationMs', 'extraction', 'evaluation', 'metricOverrides'] as const;

/** DISTINCT ON over calls_contact_idx: the newest campaign call of each contact in the page. */
@Injectable()
export class SqlContactCallReader extends ContactCallReader {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async finalCalls(workspaceId: string, contactIds: readonly string[]): Promise<Map<string, ContactFinalCall>> {
    const found = new Map<string, ContactFinalCall>();
    if (contactIds.length === 0) return found;
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT DISTINCT ON (${c.contactId}) ${CALLS.select(undefined, FIELDS)} FROM ${CALLS.name}
        WHERE ${c.contactId} = ANY($1::uuid[]) AND ${c.workspaceId} = $2 AND ${c.kind} = 'campaign'
        ORDER BY ${c.contactId}, ${c.startedAt} DESC, ${c.id} DESC`,
      [[...contactIds], workspaceId],
    );
    for (const row of rows) {
      const call = CALLS.fromRow(row, FIELDS);
      const overrides = Object.entries(call.metricOverrides);
      const evaluation =
        overrides.length === 0 ? call.evaluation : { ...(call.evaluation ?? {}), ...Object.fromEntries(overrides.map(([key, o]) => [key, o.value])) };
      found.set(call.contactId!, {
        callId: call.id,
        contactId: call.contactId!,
        outcome: call.outcome,
        startedAt: call.startedAt,
        durationMs: call.durationMs,
        extraction: call.extraction,
        evaluation,
      });
    }
    return found;
  }
}
