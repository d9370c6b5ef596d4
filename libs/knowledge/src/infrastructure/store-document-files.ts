import { Inject, Injectable, Provider } from '@nestjs/common';
import { AppConfig, AppError } from '@outreach/core';
import { FileStore, LocalFileStore, putFile, readFile, S3FileStore } from '@outreach/files';
import { DocumentFiles } from '../application/knowledge.ports';

/** The FileStore instance that holds documents (its own directory or bucket: DOCUMENT_STORE, DOCUMENT_DIR, DOCUMENT_S3_*). */
export const DOCUMENT_FILE_STORE = Symbol('DOCUMENT_FILE_STORE');

export const DOCUMENT_FILE_STORE_PROVIDER: Provider = {
  provide: DOCUMENT_FILE_STORE,
  inject: [AppConfig],
  useFactory: (config: AppConfig): FileStore =>
    config.documentStore === 's3'
      ? new S3FileStore({ bucket: config.documentS3Bucket, region: config.documentS3Region, endpoint: config.documentS3Endpoint })
      : new LocalFileStore(config.documentDir),
};

/** Error codes of the network (Node, the AWS SDK) that mean "the store could not be reached". */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'TimeoutError', 'RequestTimeout']);

/**
 * A store failure as the contract names it (decisions.md 39.2): unreachable, or answering 503
 * (SlowDown, ServiceUnavailable) → 503 document_storage_unavailable; any other refusal or failure
 * of the write (403 AccessDenied, 404 NoSuchBucket, a full disk) → 502 document_storage_failed.
 */
export function storageFailure(error: unknown): AppError {
  const e = error as { code?: string; name?: string; errno?: unknown; $metadata?: { httpStatusCode?: number }; cause?: unknown };
  const codes = [e.code, e.name, (e.cause as { code?: string } | undefined)?.code];
  const httpStatus = e.$metadata?.httpStatusCode;
  const detail = error instanceof Error ? error.message : String(error);
  // The SDK's retry layer may wrap a network error it does not recognise as an Error (another
  // realm) into "AWS SDK error wrapper for Error: connect ECONNREFUSED …", keeping only the text.
  const wrapped = /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)\b/.test(detail);
  const unreachable = codes.some((c) => c && UNREACHABLE.has(c)) || httpStatus === 503 || wrapped;
  return unreachable
    ? new AppError('document_storage_unavailable', { message: `the document store cannot be reached (${detail}); try again later` })
    : new AppError('document_storage_failed', { message: `the document store refused the file (${detail})` });
}

@Injectable()
export class StoreDocumentFiles extends DocumentFiles {
  constructor(@Inject(DOCUMENT_FILE_STORE) private readonly store: FileStore) {
    super();
  }

  async put(key: string, body: Buffer): Promise<void> {
    try {
      await putFile(this.store, key, body);
    } catch (error) {
      throw storageFailure(error);
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.store, key);
    } catch (error) {
      throw storageFailure(error);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.store.delete(key);
    } catch (error) {
      throw storageFailure(error);
    }
  }
}
