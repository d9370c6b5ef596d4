import { AppError, ValidationIssue } from '@outreach/core';
import type { VariableBinding } from './variable-bindings';

/** The values a message's placeholders are filled from (decisions.md 30.12). */
export interface MessageVariables {
  /** The contact's fields (CONTACT_FIELD bindings). */
  contact?: Readonly<Record<string, string | number | boolean | null | undefined>>;
  /** The campaign's variables (CAMPAIGN_VARIABLE bindings). */
  campaign?: Readonly<Record<string, string | number | boolean | null | undefined>>;
  /** Values known only at send time: payment_link, recovery_link… (RUNTIME bindings). */
  runtime?: Readonly<Record<string, string | null | undefined>>;
}

const PLACEHOLDER = /\{\{\s*(\d{1,3})\s*\}\}/g;

/**
 * The value of each placeholder, in order ({{1}} first). A binding whose value is missing or blank
 * is refused (400 invalid_request, one issue per binding): a message is never sent with a hole.
 */
export function bindingValues(bindings: readonly VariableBinding[], variables: MessageVariables): string[] {
  const issues: ValidationIssue[] = [];
  const sorted = [...bindings].sort((a, b) => a.placeholder - b.placeholder);
  const values = sorted.map((b) => {
    const [path, raw] =
      b.source === 'CONSTANT'
        ? ['', b.value]
        : b.source === 'CONTACT_FIELD'
          ? [`variables.contact.${b.value}`, variables.contact?.[b.value]]
          : b.source === 'CAMPAIGN_VARIABLE'
            ? [`variables.campaign.${b.value}`, variables.campaign?.[b.value]]
            : [`variables.runtime.${b.value}`, variables.runtime?.[b.value]];
    const text = raw === null || raw === undefined ? '' : String(raw).trim();
    if (text === '') issues.push({ path, message: `{{${b.placeholder}}} (${b.source} ${b.value}) has no value` });
    return text;
  });
  if (issues.length > 0) throw new AppError('invalid_request', { message: 'the template needs values the send did not give', issues });
  return values;
}

/** The text with `{{n}}` replaced by values[n-1] (HTML-escaped for an HTML body). */
export function renderPlaceholders(text: string, values: readonly string[], options: { html?: boolean } = {}): string {
  return text.replace(PLACEHOLDER, (whole, n: string) => {
    const value = values[Number(n) - 1];
    if (value === undefined) return whole;
    return options.html ? escapeHtml(value) : value;
  });
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
