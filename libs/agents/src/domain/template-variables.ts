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

export type SystemVariable = (typeof SYSTEM_VARIABLES)[number];

/** What the service knows when a call starts: the facts the system variables are made of. */
export interface CallFacts {
  agentName: string;
  callerPhone: string;
  /** Empty for a test call (it belongs to no campaign). */
  campaignName: string;
  contactName: string;
  contactPhone: string;
  /** IANA zone: the campaign's, or the workspace default for a test call. */
  timezone: string;
  workspaceName: string;
  now: Date;
}

/** A formatter per zone, made once: building one costs far more than formatting with it (decisions.md 16.41). */
const wallClocks = new Map<string, Intl.DateTimeFormat>();

function wallClockIn(timeZone: string): Intl.DateTimeFormat {
  let format = wallClocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    wallClocks.set(timeZone, format);
  }
  return format;
}

/**
 * Every system variable's value for one call (decisions.md 11.10, 16.21): dates and times are the
 * wall clock in `timezone` — current_date ISO (2026-11-25), current_day the English weekday
 * (Wednesday), current_time 24-hour HH:mm.
 */
export function systemVariableValues(facts: CallFacts): Record<SystemVariable, string> {
  const parts = Object.fromEntries(wallClockIn(facts.timezone).formatToParts(facts.now).map((part) => [part.type, part.value]));
  return {
    agent_name: facts.agentName,
    caller_phone: facts.callerPhone,
    campaign_name: facts.campaignName,
    contact_name: facts.contactName,
    contact_phone: facts.contactPhone,
    current_date: `${parts.year}-${parts.month}-${parts.day}`,
    current_day: parts.weekday,
    current_time: `${parts.hour}:${parts.minute}`,
    timezone: facts.timezone,
    workspace_name: facts.workspaceName,
  };
}

/**
 * The variables a call's agent receives: the contact's own values (upload columns, a lead's
 * fields, the campaign's variable mapping) joined by the system variables, which the service
 * owns — a contact field of the same name does not override them.
 */
export function callVariables(own: Record<string, unknown>, facts: CallFacts): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(own)) {
    if (value !== undefined && value !== null) values[name] = String(value);
  }
  return { ...values, ...systemVariableValues(facts) };
}
