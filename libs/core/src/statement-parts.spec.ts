import { StatementParts } from './statement-parts';

describe('StatementParts', () => {
  it('renumbers each part after the ones before it and keeps their values in order', () => {
    const parts = new StatementParts();
    expect(parts.add('a', { sql: 'SELECT $1::int AS x, $2 AS y', params: [1, 'two'] })).toBe('a');
    parts.add('b', { sql: 'INSERT INTO t (x, z) SELECT x, $1 FROM a WHERE y = $2 RETURNING x', params: ['three', 'two'] });
    expect(parts.build({ sql: 'SELECT count(*) FROM b WHERE $1', params: [true] })).toEqual({
      sql: 'WITH a AS (SELECT $1::int AS x, $2 AS y),\nb AS (INSERT INTO t (x, z) SELECT x, $3 FROM a WHERE y = $4 RETURNING x)\nSELECT count(*) FROM b WHERE $5',
      params: [1, 'two', 'three', 'two', true],
    });
  });

  it('renumbers $10 and beyond as numbers, not as $1 followed by a digit', () => {
    const parts = new StatementParts();
    parts.add('a', { sql: 'SELECT $1', params: ['x'] });
    const values = Array.from({ length: 11 }, (_, i) => i);
    parts.add('b', { sql: `SELECT ${values.map((i) => `$${i + 1}`).join(', ')}`, params: values });
    expect(parts.build({ sql: 'SELECT 1', params: [] }).sql).toContain('SELECT $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)');
  });

  it('refuses a placeholder without a value, a name added twice, and a name that is not plain', () => {
    const parts = new StatementParts();
    expect(() => parts.add('a', { sql: 'SELECT $2', params: ['x'] })).toThrow('$2 has no value');
    parts.add('b', { sql: 'SELECT 1', params: [] });
    expect(() => parts.add('b', { sql: 'SELECT 1', params: [] })).toThrow('added before');
    expect(() => parts.add('b; DROP', { sql: 'SELECT 1', params: [] })).toThrow('plain');
  });
});
