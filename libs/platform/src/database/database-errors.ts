import { QueryFailedError } from 'typeorm';

const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// Postgres SQLSTATEs that mean "the server is not there for you right now" (57014: the statement
// ran into statement_timeout, the server-side twin of the client's query_timeout).
const UNAVAILABLE_SQLSTATES = new Set(['57014', '57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006']);
// node-postgres reports these without an errno.
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error',
  'Connection terminated due to connection timeout',
  'Client was closed and is not queryable',
];

/** Whether an error means the database could not be reached (→ 503 database_unavailable). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const inner = error instanceof QueryFailedError ? (error.driverError as unknown) : error;
  // Duck-typed rather than `instanceof Error`: socket errors are created by Node's own realm,
  // which is not the caller's under jest's VM contexts (ECONNREFUSED rendered as a 500 there).
  if (typeof inner !== 'object' || inner === null) return false;
  const { code, message } = inner as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (CONNECTION_ERRNOS.has(code) || UNAVAILABLE_SQLSTATES.has(code))) return true;
  return typeof message === 'string' && PG_CONNECTION_MESSAGES.some((m) => message.includes(m));
}

/** Postgres unique_violation, optionally on a named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; constraint?: string };
  return driverError.code === '23505' && (constraint === undefined || driverError.constraint === constraint);
}

