/**
 * `{{name}}` placeholders. `variables` of an agent are the ones its texts use; the system
 * variables are those the service fills itself at call time.
 */
const PLACEHOLDER = /\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}/g;

/** Built-ins filled by the service when a call starts (decisions.md 11.10). */
export const SYSTEM_VARIABLES = [
  'agent_name',
  'caller_phone',
  'campaign_name',
  'contact_name',
  'contact_phone',
  'current_date',
  'current_day',
  'current_time',
  'timezone',
  'workspace_name',
] as const;

/** Sorted, unique placeholder names found in the given texts (null/undefined ignored). */
export function placeholdersIn(texts: ReadonlyArray<string | null | undefined>): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    for (const match of text.matchAll(PLACEHOLDER)) found.add(match[1]);
  }
  return [...found].sort();
}
