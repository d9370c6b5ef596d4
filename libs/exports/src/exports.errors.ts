import { defineErrors } from '@outreach/core';

/**
 * The error codes the exports module owns (moved out of libs/core/src/pending.errors.ts when the
 * module was built, issue 16). libs/core/src/error-registry.spec.ts checks every contract code
 * exists exactly once.
 */
export const EXPORTS_ERRORS = defineErrors('exports', {
  expired: { status: 410, message: 'Export artifact expired' },
  excel_row_limit_exceeded: { status: 422, message: 'Too many rows for XLSX' },
  invalid_export_period: { status: 400, message: 'Period not one of today, last_7_days, this_month, last_month, all_time, custom' },
  invalid_export_range: { status: 400, message: 'Custom range missing from/to, or to <= from' },
});

declare module '@outreach/core' {
  interface ErrorCodes extends Record<keyof typeof EXPORTS_ERRORS, true> {}
}
