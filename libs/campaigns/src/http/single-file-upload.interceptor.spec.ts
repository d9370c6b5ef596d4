import { AppError } from '@outreach/core';
import { MulterError } from 'multer';
import { uploadError } from './single-file-upload.interceptor';

describe('uploadError: a failure while reading a multipart upload, as a contract code', () => {
  const limit = { bytes: 1024, code: 'file_too_large' as const };
  const codeOf = (error: unknown) => {
    const answer = uploadError(error, limit);
    expect(answer).toBeInstanceOf(AppError);
    return { code: answer.code, status: answer.status, message: answer.message };
  };

  it('a file over the limit answers the route’s size code', () => {
    expect(codeOf(new MulterError('LIMIT_FILE_SIZE', 'file'))).toEqual({ code: 'file_too_large', status: 413, message: 'the file is over 1024 bytes' });
  });

  it('any other multer failure, or a multipart failure with a message, is 400 upload_error naming it', () => {
    expect(codeOf(new MulterError('LIMIT_UNEXPECTED_FILE', 'other'))).toMatchObject({ code: 'upload_error', status: 400, message: 'Unexpected file field: send a single "file" field' });
    expect(codeOf(new Error('Unexpected end of form'))).toMatchObject({
      code: 'upload_error',
      status: 400,
      message: 'malformed multipart request (Unexpected end of form): send a single "file" field',
    });
  });

  it('a failure that says nothing is the contract’s fallback, 500 upload_failed', () => {
    for (const silent of [new Error(''), undefined, 'boom', { code: 'EPIPE' }]) {
      expect(codeOf(silent)).toMatchObject({ code: 'upload_failed', status: 500 });
    }
  });
});
