import { appendFileSync } from 'node:fs';

/**
 * The count every fault drill ends with (issue 7): how many units of work the system accepted,
 * how many reached their end, how many were lost (must be 0) and how many side effects happened
 * more than once (must be 0). What a "unit" is depends on the drill: a lead, an outbox event, a
 * contact's final outcome, a webhook delivery.
 */
export interface DrillCount {
  accepted: number;
  delivered: number;
  lost: number;
  duplicated: number;
}

/**
 * Prints the drill's count line (`drill NAME: accepted=… delivered=… lost=… duplicated=…`) and,
 * when DRILL_REPORT names a file, appends it there as one JSON line (npm run test:faults collects
 * them). Returns the count so the test asserts on exactly what was printed.
 */
export function reportDrill(name: string, count: DrillCount): DrillCount {
  const line = `drill ${name}: accepted=${count.accepted} delivered=${count.delivered} lost=${count.lost} duplicated=${count.duplicated}`;
  process.stdout.write(`${line}\n`);
  const file = process.env.DRILL_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify({ drill: name, ...count })}\n`);
  return count;
}

/** How many occurrences beyond the first, summed over every distinct value. */
export function extraOccurrences<T>(values: Iterable<T>): number {
  const seen = new Map<T, number>();
  for (const v of values) seen.set(v, (seen.get(v) ?? 0) + 1);
  let extra = 0;
  for (const n of seen.values()) extra += n - 1;
  return extra;
}
