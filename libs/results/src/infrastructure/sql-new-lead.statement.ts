import { Injectable } from '@nestjs/common';
import { ApiLeadIntake, NewApiLead } from '@outreach/campaigns';
import { StatementParts } from '@outreach/core';
import { prepared, TransactionHost } from '@outreach/platform';
import { QueryFailedError } from 'typeorm';
import { LeadKeyRecord, NewLeadStatement, NewLeadWrite } from '../application/results.ports';
import { API_LEAD_KEYS } from './persistence/api-lead-key.table';
import { KEY_LOCK_TIMEOUT, keyInProgress } from './sql-lead-key.store';

/**
 * The lead push of a new contact as one statement (decisions.md 42.3): campaigns' parts (the
 * campaign's checks under its share lock, the contact, its event and count, the dispatch job),
 * then the key with its answer, inserted from the new contact's row. The key's insert has no ON
 * CONFLICT: a key taken before fails the statement, so nothing of it is written (the caller
 * replays). The lock bound is set by the row the key is inserted from, so it is in force before
 * the key's insert can wait, and ends with the statement.
 */
@Injectable()
export class SqlNewLeadStatement extends NewLeadStatement {
  constructor(
    private readonly tx: TransactionHost,
    private readonly intake: ApiLeadIntake,
  ) {
    super();
  }

  async write(lead: NewApiLead, key: LeadKeyRecord): Promise<NewLeadWrite> {
    // Inside a caller's transaction the statement would not be its own (a taken key would abort
    // the caller's transaction): the push then takes its transaction path, which joins the caller's.
    if (this.tx.inTransaction) return 'not_admitted';
    const parts = new StatementParts();
    const contact = this.intake.admitNewInto(parts, lead);
    const bound = parts.add('lead_key_bound', { sql: `SELECT set_config('lock_timeout', '${KEY_LOCK_TIMEOUT}', true) FROM ${contact}`, params: [] });
    const claim = parts.add('lead_key', API_LEAD_KEYS.insertSelect(key, bound, 'RETURNING 1'));
    const { sql, params } = parts.build({ sql: `SELECT count(*)::int AS n FROM ${claim}`, params: [] });
    try {
      // Prepared (decisions.md 46.10): every part is a write or a check by primary or unique key, and the text is the same for every push.
      const [row]: Array<{ n: number }> = await this.tx.manager.query(prepared(sql), params);
      return row.n === 1 ? 'written' : 'not_admitted';
    } catch (error) {
      const driver = error instanceof QueryFailedError ? (error.driverError as { code?: string; table?: string }) : {};
      if (driver.code === '23505' && driver.table === API_LEAD_KEYS.name) return 'key_taken';
      if (driver.code === '55P03') throw keyInProgress();
      throw error;
    }
  }
}
