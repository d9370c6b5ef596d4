import { runInNewContext } from 'node:vm';
import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-errors';

describe('isDatabaseUnavailable', () => {
  it('recognises socket errors, also when created in another realm (Node core vs jest VM)', () => {
    const foreign = runInNewContext(`Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })`);
    expect(foreign instanceof Error).toBe(false);
    expect(isDatabaseUnavailable(foreign)).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
  });

  it('recognises node-postgres timeouts and closed clients, wrapped by TypeORM or not', () => {
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], new Error('Query read timeout')))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated due to connection timeout'))).toBe(true);
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], new Error('Client was closed and is not queryable')))).toBe(true);
  });

  it('treats statement_timeout (57014) and server shutdown as unavailable, not constraint errors', () => {
    const sql = (code: string) => new QueryFailedError('SELECT 1', [], Object.assign(new Error('x'), { code }));
    expect(isDatabaseUnavailable(sql('57014'))).toBe(true);
    expect(isDatabaseUnavailable(sql('57P01'))).toBe(true);
    expect(isDatabaseUnavailable(sql('23505'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
