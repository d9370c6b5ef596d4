import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';

/**
 * Statements run as named, server-side prepared statements (decisions.md 46.10).
 *
 * Postgres parses, analyses and plans every unnamed statement it is sent. A named one is parsed
 * and analysed once per connection. Every run of it is still planned, for its values and the tables
 * as they are then: the pool's sessions set `plan_cache_mode = force_custom_plan`
 * (data-source-options.ts, decisions.md 46.11), because the generic plan Postgres would otherwise
 * keep after five runs lasts until the table's next ANALYZE, and one made while the table was small
 * (a seq scan) stayed while it grew (bench:engine slowed from about 600 to about 105 contacts/s).
 *
 * Only look-ups and writes by primary or unique key are marked (the rule of 46.10, kept). The
 * statement's text must not vary between calls, or each variant would stay prepared on every
 * connection: the registry is bounded ({@link MAX_PREPARED_STATEMENTS}) and a text past the bound
 * runs unnamed.
 *
 * The mark is the text itself: `prepared(sql)` returns `sql`, and the pg client the pool makes
 * (TimeoutSafeClient) names every statement whose text is marked. So a marked statement is prepared
 * whichever way it reaches the pool (a repository's manager, a transaction's query runner), and
 * DB_PREPARED_STATEMENTS=false (behind a pooler that does not keep prepared statements) turns it
 * off without touching a repository.
 */
export const MAX_PREPARED_STATEMENTS = 100;

const names = new Map<string, string>();
let refused = 0;

/** Marks `sql` to be run as a prepared statement (see above) and returns it unchanged. */
export function prepared(sql: string): string {
  if (names.has(sql)) return sql;
  if (names.size >= MAX_PREPARED_STATEMENTS) {
    // A marked text that varies between calls is a bug in its caller: said once per process.
    if (refused++ === 0) new Logger('PreparedStatements').warn(`more than ${MAX_PREPARED_STATEMENTS} statements marked prepared; the rest run unnamed: ${sql.slice(0, 120)}`);
    return sql;
  }
  names.set(sql, `outreach_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`);
  return sql;
}

/** The statement name of a marked text; undefined for any other. */
export function preparedStatementName(sql: string): string | undefined {
  return names.get(sql);
}

/** How many texts are marked, and how many were refused at the bound (a text that varies). */
export function preparedStatementCounts(): { marked: number; refused: number } {
  return { marked: names.size, refused };
}
