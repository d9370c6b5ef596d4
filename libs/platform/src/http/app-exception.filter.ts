import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { toAppError } from './to-app-error';
import { writeError } from './error-response';

/** The one exception filter: every error answer of the API is rendered here. */
@Catch()
export class AppExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const { error, unexpected } = toAppError(exception);
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
