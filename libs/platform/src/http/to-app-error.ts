import { HttpException } from '@nestjs/common';
import { AppError } from '@outreach/core';
import { isDatabaseUnavailable } from '../database/database-errors';

export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * Turns anything thrown while handling a request into an AppError. Unknown errors become
 * `500 internal_error` (logged by the caller with their stack; the body never carries it).
 */
export function toAppError(exception: unknown): { error: AppError; unexpected: boolean } {
  if (exception instanceof AppError) return { error: exception, unexpected: false };
  if (isDatabaseUnavailable(exception)) {
    return {
      error: new AppError('database_unavailable', {
        headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
      }),
      unexpected: false,
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    switch (status) {
      case 404:
      case 405:
        return { error: new AppError('not_found', { message: 'No such route or resource' }), unexpected: false };
      case 413:
        return { error: new AppError('internal_error', { status: 413, message: 'Request body over the size limit' }), unexpected: false };
      case 400:
        return { error: new AppError('invalid_request', { message: String(exception.message) }), unexpected: false };
      case 401:
        return { error: new AppError('unauthorized'), unexpected: false };
      case 403:
        return { error: new AppError('forbidden'), unexpected: false };
      case 429:
        return { error: new AppError('rate_limited'), unexpected: false };
      default:
        return { error: new AppError('internal_error'), unexpected: true };
    }
  }
  return { error: new AppError('internal_error'), unexpected: true };
}
