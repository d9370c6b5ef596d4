import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';

/**
 * Statements run as named, server-side prepared statements (decisions.md 46.10).
 *
 * Postgres parses, analyses and plans every unnamed statement it is sent. A named one is parsed
 * once per connection, and after five runs Postgres may keep one generic plan for it: the lead
 * push's one statement (six tables, about 1,600 characters) runs 1.6× as many times per second
 * on this machine prepared as unnamed, almost all of it from the plan it no longer makes.
 *
 * A generic plan is made without the parameters' values, so only a statement whose best plan
 * does not depend on them may be marked: look-ups and writes by primary or unique key. A statement
 * that filters on a skewed column (a status, a workspace's share of a table) keeps being planned
 * for its values. The statement's text must not vary between calls, or each variant would stay
 * prepared on every connection: the registry is bounded ({@link MAX_PREPARED_STATEMENTS}) and a
 * text past the bound runs unnamed.
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
