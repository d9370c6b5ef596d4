import { ArgumentsHost, Catch, ExceptionFilter, Logger, NotFoundException } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AppError } from '@outreach/core';
import { allowedMethods, RouteInfo, routesOf } from './route-inventory';
import { toAppError } from './to-app-error';
import { writeError } from './error-response';

/** The one exception filter: every error answer of the API is rendered here. */
@Catch()
export class AppExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');
  private routes: RouteInfo[] | null = null;

  constructor(private readonly modules: ModulesContainer) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    let { error, unexpected } = toAppError(exception);
    // No route for this method, but the path has others: still the contract's 404 not_found
    // (it lists no 405), with the methods the path answers in `Allow` (decisions.md 6.10).
    if (exception instanceof NotFoundException) {
      const allow = allowedMethods((this.routes ??= routesOf(this.modules)), req.path);
      if (allow.length > 0 && !allow.includes(req.method)) {
        error = new AppError('not_found', { message: `${req.method} is not a method of ${req.path}; it answers ${allow.join(', ')}`, headers: { Allow: allow.join(', ') } });
        unexpected = false;
      }
    }
    if (unexpected) {
      this.logger.error(
        { err: exception, requestId: (req as Request & { id?: string }).id, route: req.route?.path },
        'unexpected error',
      );
    } else if (error.code === 'database_unavailable') {
      this.logger.warn({ requestId: (req as Request & { id?: string }).id, err: String(exception) }, 'database unavailable');
    }
    writeError(req, res, error);
  }
}
