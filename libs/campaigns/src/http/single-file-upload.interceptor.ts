import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { AppConfig } from '@outreach/platform';
import { AppError, ErrorCode } from '@outreach/core';
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
  private readonly limit: { bytes: number; code: ErrorCode };
  /** The file may be left out (and the request may be JSON instead): OptionalFileUploadInterceptor. */
  protected readonly fileOptional: boolean = false;

  constructor(config: AppConfig) {
    this.limit = this.sizeLimit(config);
    this.handler = multer({
      storage: multer.memoryStorage(),
      limits: { fileSize: this.limit.bytes, files: 1, fields: 10, parts: 12, fieldSize: 64 * 1024 },
    }).single('file');
  }

  /** The largest file and the code answered above it: UPLOAD_MAX_BYTES and file_too_large here; a route of another module may narrow it (knowledge documents). */
  protected sizeLimit(config: AppConfig): { bytes: number; code: ErrorCode } {
    return { bytes: config.uploadMaxBytes, code: 'file_too_large' };
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    if (!req.is('multipart/form-data')) {
      if (this.fileOptional) return next.handle();
      throw new AppError('no_files', { message: 'send the file as multipart/form-data in a field named "file"' });
    }
    await new Promise<void>((resolve, reject) => {
      this.handler(req, res, (error?: unknown) => (error ? reject(this.translate(error)) : resolve()));
    });
    if (!req.file && !this.fileOptional) throw new AppError('file_required', { message: 'the multipart request has no "file" field with a file' });
    return next.handle();
  }

  private translate(error: unknown): AppError {
    return uploadError(error, this.limit);
  }
}

/**
 * The contract code of a failure while reading a multipart upload: over the limit → the route's
 * size code, any other multer or multipart failure → 400 upload_error naming it, and a failure
 * that says nothing (no message) → 500 upload_failed, the contract's fallback.
 */
export function uploadError(error: unknown, limit: { bytes: number; code: ErrorCode }): AppError {
  if (error instanceof MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') {
      return new AppError(limit.code, { message: `the file is over ${limit.bytes} bytes` });
    }
    return new AppError('upload_error', { message: `${error.message}: send a single "file" field` });
  }
  const message = error instanceof Error ? error.message : '';
  return message
    ? new AppError('upload_error', { message: `malformed multipart request (${message}): send a single "file" field` })
    : new AppError('upload_failed');
}

/**
 * The same reading, limits and codes for routes where the file is one way among others to send
 * the input (POST /campaigns/from-brief: a file, or briefText): a multipart request may carry no
 * file, and a JSON request passes through untouched.
 */
@Injectable()
export class OptionalFileUploadInterceptor extends SingleFileUploadInterceptor {
  protected override readonly fileOptional: boolean = true;
}
