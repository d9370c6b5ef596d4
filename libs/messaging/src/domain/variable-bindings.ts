import { AppError, ValidationIssue } from '@outreach/core';

/**
 * Where the value of a template placeholder (`{{1}}`, `{{2}}` …) comes from when a message is
 * sent (decisions.md 30.5): a field of the contact, a variable of the campaign, a constant written
 * here, or a value only known at send time (a payment link…).
 */
export const BINDING_SOURCES = ['CONTACT_FIELD', 'CAMPAIGN_VARIABLE', 'CONSTANT', 'RUNTIME'] as const;
export type BindingSource = (typeof BINDING_SOURCES)[number];

/** The values the service produces at send time, for RUNTIME bindings. */
export const RUNTIME_VALUES = ['payment_link', 'recovery_link', 'order_id', 'order_total', 'tracking_link'] as const;

export interface VariableBinding {
  placeholder: number;
  source: BindingSource;
  /** The field or variable name, the constant text, or the runtime value's name. */
  value: string;
}

/** At most this many placeholders in one template (WhatsApp's own ceiling is far above real use). */
export const MAX_PLACEHOLDERS = 20;

const PLACEHOLDER = /\{\{\s*(\d{1,3})\s*\}\}/g;

/** The placeholder numbers used in the texts, ascending, each once. */
export function placeholdersOf(...texts: Array<string | null | undefined>): number[] {
  const found = new Set<number>();
  for (const text of texts) {
    for (const match of (text ?? '').matchAll(PLACEHOLDER)) found.add(Number(match[1]));
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * Checks the bindings against the placeholders of the texts: placeholders are numbered 1…n
 * without gaps, each is bound exactly once, no binding names a placeholder the texts do not use,
 * and a RUNTIME binding names a value the service can produce. Throws 400 invalid_body with one
 * issue per problem; `textPath` names the text member in the issues (`body`, `subject`…).
 */
export function assertBindings(texts: Array<string | null | undefined>, bindings: readonly VariableBinding[], textPath: string): void {
  const issues: ValidationIssue[] = [];
  const used = placeholdersOf(...texts);
  if (used.length > MAX_PLACEHOLDERS) issues.push({ path: textPath, message: `at most ${MAX_PLACEHOLDERS} placeholders` });
  used.forEach((n, i) => {
    if (n !== i + 1) issues.push({ path: textPath, message: `placeholders must be numbered {{1}} to {{${used.length}}} without gaps; found {{${n}}}` });
  });
  const seen = new Set<number>();
  bindings.forEach((b, i) => {
    if (!used.includes(b.placeholder)) issues.push({ path: `bindings.${i}.placeholder`, message: `{{${b.placeholder}}} does not appear in the template` });
    if (seen.has(b.placeholder)) issues.push({ path: `bindings.${i}.placeholder`, message: `{{${b.placeholder}}} is bound twice` });
    seen.add(b.placeholder);
    if (b.source === 'RUNTIME' && !(RUNTIME_VALUES as readonly string[]).includes(b.value)) {
      issues.push({ path: `bindings.${i}.value`, message: `a RUNTIME binding is one of ${RUNTIME_VALUES.join(', ')}` });
    }
  });
  for (const n of used) {
    if (!seen.has(n)) issues.push({ path: 'bindings', message: `{{${n}}} has no binding` });
  }
  if (issues.length > 0) {
    throw new AppError('invalid_body', { message: 'the bindings do not match the template placeholders', issues: dedupe(issues) });
  }
}

/** True when a binding can only be filled at send time: such a template cannot open an outreach campaign. */
export function needsRuntimeContext(bindings: readonly VariableBinding[]): boolean {
  return bindings.some((b) => b.source === 'RUNTIME');
}

function dedupe(issues: ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.path}\n${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
