import { storageFailure } from './store-document-files';
import '../knowledge.errors';

describe('storageFailure: which store failures are "unavailable" (503) and which "failed" (502)', () => {
  const withCode = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code });
  it.each([
    ['a refused connection', withCode('ECONNREFUSED'), 'document_storage_unavailable'],
    ['a DNS failure', withCode('ENOTFOUND'), 'document_storage_unavailable'],
    ['an SDK timeout', Object.assign(new Error('timed out'), { name: 'TimeoutError' }), 'document_storage_unavailable'],
    ['S3 answering 503 SlowDown', Object.assign(new Error('Slow down'), { name: 'SlowDown', $metadata: { httpStatusCode: 503 } }), 'document_storage_unavailable'],
    ['the SDK wrapper around a network error', new Error('AWS SDK error wrapper for Error: connect ECONNREFUSED 127.0.0.1:9'), 'document_storage_unavailable'],
    ['S3 refusing (403 AccessDenied)', Object.assign(new Error('Access Denied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } }), 'document_storage_failed'],
    ['a missing bucket', Object.assign(new Error('no bucket'), { name: 'NoSuchBucket', $metadata: { httpStatusCode: 404 } }), 'document_storage_failed'],
    ['a full disk', withCode('ENOSPC'), 'document_storage_failed'],
  ])('%s → %s', (_what, error, code) => {
    expect(storageFailure(error).code).toBe(code);
  });
});
