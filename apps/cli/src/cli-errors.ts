import { isAppError } from '@outreach/core';
import { ConfigError, isDatabaseUnavailable } from '@outreach/platform';

/** Exit codes of the operator CLI. */
export const EXIT_OK = 0;
/** The operation was refused (an AppError: unknown id, invalid value, illegal transition…). */
export const EXIT_REFUSED = 1;
/** The command line itself is wrong: unknown command or option, missing or malformed value. */
export const EXIT_USAGE = 2;
/** The environment is wrong: bad configuration, database unreachable, schema missing, a bug. */
export const EXIT_FAILURE = 3;

/** A malformed command line, found by our own option parsers. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** What commander throws once `exitOverride()` is on (it has already printed its message). */
interface CommanderExit {
  code: string;
  exitCode: number;
}

function isCommanderExit(error: unknown): error is CommanderExit {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('commander.');
}

function driverCode(error: unknown): string | undefined {
  const inner = (error as { driverError?: unknown } | null)?.driverError ?? error;
  const code = (inner as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export const USAGE_HINT = '(add --help for usage)';

/**
 * Turns any failure into one line on stderr and an exit code. A user mistake never prints a stack
 * trace; only an unexpected error (a bug) does, since that is what its reader needs.
 */
export function reportFailure(error: unknown, writeErr: (text: string) => void = (t) => process.stderr.write(t)): number {
  if (isCommanderExit(error)) {
    // commander already wrote the help or its one-line error (and the usage hint) to its stream.
    // Help asked for (--help, `help <command>`) ends with commander's exit code 0; anything else
    // (unknown command or option, missing value, bare invocation) is a usage error.
    return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  }
  if (error instanceof UsageError) {
    writeErr(`error: ${error.message} ${USAGE_HINT}\n`);
    return EXIT_USAGE;
  }
  if (isAppError(error)) {
    const issues = error.options.issues?.map((i) => `${i.path}: ${i.message}`).join('; ');
    writeErr(`error: ${error.code}: ${error.message}${issues ? ` (${issues})` : ''}\n`);
    return EXIT_REFUSED;
  }
  if (error instanceof ConfigError) {
    writeErr(`${error.message}\n`);
    return EXIT_FAILURE;
  }
  if (isDatabaseUnavailable(error)) {
    writeErr(`error: database unavailable: ${(error as Error).message}\n`);
    return EXIT_FAILURE;
  }
  const sqlState = driverCode(error);
  if (sqlState === '3D000') {
    writeErr(`error: ${(error as Error).message}; \`npm run migrate\` creates and migrates it\n`);
    return EXIT_FAILURE;
  }
  if (sqlState === '42P01' || sqlState === '42703') {
    writeErr(`error: the database schema is missing or out of date (${(error as Error).message}); run \`npm run migrate\` first\n`);
    return EXIT_FAILURE;
  }
  writeErr(`error: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT_FAILURE;
}
