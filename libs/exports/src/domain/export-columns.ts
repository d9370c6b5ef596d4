import { AppError } from '@outreach/core';
import type { ExportLead } from './export-lead';
import { valueText } from './lead-filter';

export type CellValue = string | number | null;

export interface ExportColumn {
  /** The header cell, and the name `columns` selects it by. */
  header: string;
  value(lead: ExportLead): CellValue;
}

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** Contact and call columns every report has (decisions.md 26.5). */
const BASE_COLUMNS: ExportColumn[] = [
  { header: 'contact_id', value: (l) => l.contactId },
  { header: 'phone', value: (l) => l.phone },
  { header: 'name', value: (l) => l.name },
  { header: 'status', value: (l) => l.status },
  { header: 'attempts', value: (l) => l.attempts },
  { header: 'outcome', value: (l) => l.lastOutcome },
  { header: 'last_attempt_at', value: (l) => iso(l.lastAttemptAt) },
  { header: 'connected_phone', value: (l) => l.connectedPhone },
  { header: 'call_id', value: (l) => l.finalCall?.callId ?? null },
  { header: 'call_started_at', value: (l) => iso(l.finalCall?.startedAt) },
  { header: 'call_duration_seconds', value: (l) => (l.finalCall?.durationMs == null ? null : Math.round(l.finalCall.durationMs / 1000)) },
];

export const BASE_COLUMN_NAMES = BASE_COLUMNS.map((c) => c.header);

/** What a campaign's reports have besides the base columns. */
export interface ReportShape {
  /** Keys of the contacts' uploaded fields (column `field.<key>`). */
  fieldKeys: string[];
  /** The campaign's effective extraction keys (column `extraction.<key>`). */
  extractionKeys: string[];
  /** The campaign's evaluation metric keys (column `metric.<key>`). */
  metricKeys: string[];
}

/**
 * The columns of a report, in order: base, contact fields, one per extraction key, one per
 * metric. With `selected`, only those (in the order given); an unknown name is 400 invalid_body.
 */
export function reportColumns(shape: ReportShape, selected?: readonly string[]): ExportColumn[] {
  const all: ExportColumn[] = [
    ...BASE_COLUMNS,
    ...shape.fieldKeys.map((key) => ({ header: `field.${key}`, value: (l: ExportLead) => l.fields[key] ?? null })),
    ...shape.extractionKeys.map((key) => ({ header: `extraction.${key}`, value: (l: ExportLead) => valueText(l.finalCall?.extraction?.[key]) })),
    ...shape.metricKeys.map((key) => ({ header: `metric.${key}`, value: (l: ExportLead) => valueText(l.finalCall?.evaluation?.[key]) })),
  ];
  if (!selected) return all;
  const byName = new Map(all.map((c) => [c.header, c]));
  const unknown = selected.filter((name) => !byName.has(name));
  if (unknown.length > 0) {
    throw new AppError('invalid_body', {
      message: `unknown column(s): ${unknown.join(', ')}`,
      issues: unknown.map((name) => ({ path: 'columns', message: `unknown column ${name}` })),
      detail: { available: all.map((c) => c.header) },
    });
  }
  return [...new Set(selected)].map((name) => byName.get(name)!);
}
