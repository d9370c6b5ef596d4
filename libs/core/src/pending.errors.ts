import { defineErrors } from './error-registry';

/**
 * Contract codes whose module is not built yet, grouped by the module that will own them. The
 * catalogue holds every contract code from the start (any module may throw one); a new module
 * moves its group into its own `<module>.errors.ts` (docs/extending.md, "Add a module").
 */
export const PENDING_ERRORS = defineErrors('pending', {
  // none left: every module that owns contract codes has been built (the inbound codes moved to
  // libs/campaigns and libs/agents, decisions.md 36)
});

declare module './error-registry' {
  interface ErrorCodes extends Record<keyof typeof PENDING_ERRORS, true> {}
}
