/**
 * The service's error catalogue, composed from the modules that own the codes: each module
 * declares its codes once in `<module>.errors.ts` with `defineErrors`, which registers them here
 * when the module is loaded and adds them to the `ErrorCode` type (declaration merging on
 * `ErrorCodes`). Plain TypeScript on purpose: domain, application, worker and CLI code throw
 * `new AppError('code')` without HTTP, and the exception filter maps the code to its status.
 * Clients branch on `error`, never on `message`.
 */
export interface ErrorDefinition {
  /** Default status. */
  readonly status: number;
  /** Other statuses the contract allows for this code on specific routes. */
  readonly also?: readonly number[];
  readonly message: string;
}

/**
 * Every error code of the service, as the keys of this interface. Empty here: each
 * `<module>.errors.ts` adds its codes with
 * `declare module '@outreach/core' { interface ErrorCodes extends Record<keyof typeof X_ERRORS, true> {} }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ErrorCodes {}

export type ErrorCode = keyof ErrorCodes & string;

interface Registered {
  readonly owner: string;
  readonly definition: ErrorDefinition;
}

const registry = new Map<string, Registered>();

/**
 * Registers a module's codes and returns them unchanged (typed, for the module's `ErrorCodes`
 * augmentation). A code belongs to exactly one module: defining it twice is a start-up error.
 */
export function defineErrors<const T extends Record<string, ErrorDefinition>>(owner: string, errors: T): T {
  for (const [code, definition] of Object.entries(errors)) {
    const existing = registry.get(code);
    if (existing && existing.owner !== owner) {
      throw new Error(`error code ${code} is defined by both ${existing.owner} and ${owner}`);
    }
    registry.set(code, { owner, definition });
  }
  return errors;
}

export function isErrorCode(value: string): value is ErrorCode {
  return registry.has(value);
}

/** The definition of a registered code; an unknown code is a programming error. */
export function errorDefinition(code: ErrorCode): ErrorDefinition {
  const registered = registry.get(code);
  if (!registered) throw new Error(`error code ${code} is not registered: is its module's <module>.errors.ts loaded?`);
  return registered.definition;
}

/** Every registered code with its owning module, for checks and documentation. */
export function registeredErrors(): ReadonlyMap<string, Registered> {
  return registry;
}
