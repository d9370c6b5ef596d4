import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { AppConfig } from '@outreach/platform';
import { AppError } from '@outreach/core';
import type { Request, RequestHandler, Response } from 'express';
import multer, { MulterError } from 'multer';
import { Observable } from 'rxjs';

/**
 * Reads one multipart `file` field into memory, up to UPLOAD_MAX_BYTES. Runs after the guards, so
 * an unauthenticated request is refused before its body is read. Every multer failure becomes a
 * contract code: over the limit → 413 file_too_large (LIMIT_FILE_SIZE is never emitted), malformed
 * multipart or other fields → 400 upload_error, no file → 400 file_required, not multipart → 400 no_files.
 */
@Injectable()
export class SingleFileUploadInterceptor implements NestInterceptor {
  private readonly handler: RequestHandler;

  constructor(private readonly config: AppConfig) {
    this.handler = multer({
      storage: multer.memoryStorage(),
      limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 10, parts: 12, fieldSize: 64 * 1024 },
    }).single('file');
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    if (!req.is('multipart/form-data')) {
      throw new AppError('no_files', { message: 'send the file as multipart/form-data in a field named "file"' });
    }
    await new Promise<void>((resolve, reject) => {
      this.handler(req, res, (error?: unknown) => (error ? reject(this.translate(error)) : resolve()));
    });
    if (!req.file) throw new AppError('file_required', { message: 'the multipart request has no "file" field with a file' });
    return next.handle();
  }

  private translate(error: unknown): AppError {
    if (error instanceof MulterError) {
      if (error.code === 'LIMIT_FILE_SIZE') {
        return new AppError('file_too_large', { message: `the file is over ${this.config.uploadMaxBytes} bytes` });
      }
      return new AppError('upload_error', { message: `${error.message}: send a single "file" field` });
    }
    const message = error instanceof Error ? error.message : '';
    return message
      ? new AppError('upload_error', { message: `malformed multipart request (${message}): send a single "file" field` })
      : new AppError('upload_failed');
  }
}
