import { Logger } from '@nestjs/common';
import { MAX_PREPARED_STATEMENTS, prepared, preparedStatementCounts, preparedStatementName } from './prepared-statements';

describe('prepared statements registry (decisions.md 46.10)', () => {
  it('returns the text unchanged and names it by its content: the same name for the same text, another for another', () => {
    const sql = 'SELECT 1 FROM registry_probe WHERE id = $1';
    expect(prepared(sql)).toBe(sql);
    const name = preparedStatementName(sql);
    expect(name).toMatch(/^outreach_[0-9a-f]{24}$/);
    // A text built again (another string object) is the same statement.
    expect(preparedStatementName(['SELECT 1 FROM registry_probe', 'WHERE id = $1'].join(' '))).toBe(name);
    expect(prepared(`${sql} `)).toBe(`${sql} `);
    expect(preparedStatementName(`${sql} `)).not.toBe(name);
    expect(preparedStatementName('SELECT 2')).toBeUndefined();
  });

  it('is bounded: past MAX_PREPARED_STATEMENTS, a text that varies runs unnamed, is counted as refused and is warned of once', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const before = preparedStatementCounts();
    for (let i = 0; i < MAX_PREPARED_STATEMENTS + 5; i++) prepared(`SELECT ${i} FROM registry_flood`);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain(`SELECT ${MAX_PREPARED_STATEMENTS - before.marked} FROM registry_flood`);
    warn.mockRestore();
    const after = preparedStatementCounts();
    expect(after.marked).toBe(MAX_PREPARED_STATEMENTS);
    expect(after.refused - before.refused).toBe(before.marked + 5);
    expect(preparedStatementName(`SELECT ${MAX_PREPARED_STATEMENTS + 4} FROM registry_flood`)).toBeUndefined();
    // What was marked before the bound stays marked.
    expect(preparedStatementName('SELECT 0 FROM registry_flood')).toBeDefined();
  });
});
