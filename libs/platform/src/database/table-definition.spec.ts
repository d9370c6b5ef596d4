import { column, defineTable } from './table-definition';

interface Thing {
  id: string;
  workspaceId: string;
  count: number;
  settings: { a: number };
  tags: string[];
  seenAt: Date | null;
}

const THINGS = defineTable<Thing>('things', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  count: column.bigint('count'),
  settings: column.json<{ a: number }>('settings'),
  tags: column.textArray('tags'),
  seenAt: column.nullableTimestamp('seen_at'),
});

const thing: Thing = { id: 'i', workspaceId: 'w', count: 3, settings: { a: 1 }, tags: ['x'], seenAt: null };

describe('defineTable', () => {
  it('names columns once and derives the select list', () => {
    expect(THINGS.c.workspaceId).toBe('workspace_id');
    expect(THINGS.select()).toBe('id, workspace_id, count, settings, tags, seen_at');
    expect(THINGS.select('t', ['id', 'count'])).toBe('t.id, t.count');
  });

  it('derives INSERT with casts and encoded parameters', () => {
    const { sql, params } = THINGS.insert(thing, 'ON CONFLICT DO NOTHING');
    expect(sql).toBe(
      'INSERT INTO things (id, workspace_id, count, settings, tags, seen_at) VALUES ($1, $2, $3, $4::jsonb, $5::text[], $6) ON CONFLICT DO NOTHING',
    );
    expect(params).toEqual(['i', 'w', 3, '{"a":1}', ['x'], null]);
  });

  it('derives multi-row INSERT', () => {
    const { sql, params } = THINGS.insertMany([thing, { ...thing, id: 'j' }]);
    expect(sql).toMatch(/VALUES \(\$1, .*\$6\), \(\$7, .*\$12\)$/);
    expect(params).toHaveLength(12);
  });

  it('derives UPDATE of all non-key columns, or of some', () => {
    expect(THINGS.update(thing, ['id']).sql).toBe(
      'UPDATE things SET workspace_id = $1, count = $2, settings = $3::jsonb, tags = $4::text[], seen_at = $5 WHERE id = $6',
    );
    const some = THINGS.update(thing, ['id', 'workspaceId'], ['count']);
    expect(some.sql).toBe('UPDATE things SET count = $1 WHERE id = $2 AND workspace_id = $3');
    expect(some.params).toEqual([3, 'i', 'w']);
  });

  it('derives INSERT and UPDATE of some properties, leaving the other columns to their defaults', () => {
    const one = THINGS.insert({ workspaceId: 'w', settings: { a: 1 } }, 'RETURNING id', ['workspaceId', 'settings']);
    expect(one.sql).toBe('INSERT INTO things (workspace_id, settings) VALUES ($1, $2::jsonb) RETURNING id');
    expect(one.params).toEqual(['w', '{"a":1}']);
    const many = THINGS.insertMany([{ workspaceId: 'w' }, { workspaceId: 'v' }], '', ['workspaceId']);
    expect(many.sql).toBe('INSERT INTO things (workspace_id) VALUES ($1), ($2)');
    expect(many.params).toEqual(['w', 'v']);
    const update = THINGS.update({ id: 'i', count: 4 }, ['id'], ['count']);
    expect(update.sql).toBe('UPDATE things SET count = $1 WHERE id = $2');
    expect(update.params).toEqual([4, 'i']);
  });

  it('derives INSERT … SELECT … FROM of a whole record, with the same casts and parameters', () => {
    const { sql, params } = THINGS.insertSelect(thing, 'bound', 'RETURNING 1');
    expect(sql).toBe('INSERT INTO things (id, workspace_id, count, settings, tags, seen_at) SELECT $1, $2, $3, $4::jsonb, $5::text[], $6 FROM bound RETURNING 1');
    expect(params).toEqual(THINGS.insert(thing).params);
  });

  it('keeps a bigint as its decimal text when asked', () => {
    const SEQUENCED = defineTable<{ seq: string }>('sequenced', { seq: column.bigintText('seq') });
    expect(SEQUENCED.fromRow({ seq: '9007199254740993' })).toEqual({ seq: '9007199254740993' });
  });

  it('maps rows to records, converting what the driver leaves as text', () => {
    const row = { id: 'i', workspace_id: 'w', count: '42', settings: { a: 2 }, tags: [], seen_at: null };
    expect(THINGS.fromRow(row)).toEqual({ id: 'i', workspaceId: 'w', count: 42, settings: { a: 2 }, tags: [], seenAt: null });
    expect(THINGS.fromRow(row, ['id', 'count'])).toEqual({ id: 'i', count: 42 });
  });

  it('renames columns with a prefix for joins, and reads them back with it', () => {
    expect(THINGS.select('t', ['id', 'count'], 't_')).toBe('t.id AS t_id, t.count AS t_count');
    expect(THINGS.fromRow({ t_id: 'i', t_count: '7', id: 'other' }, ['id', 'count'], 't_')).toEqual({ id: 'i', count: 7 });
  });

  it('reads through one compiled mapper per property list and prefix, whichever array object names it', () => {
    const list = ['count', 'id'] as const;
    const row = { id: 'i', count: '5', t_id: 'p', t_count: '6' };
    expect(THINGS.fromRow(row, list)).toEqual({ count: 5, id: 'i' });
    expect(THINGS.fromRow(row, list, 't_')).toEqual({ count: 6, id: 'p' });
    // A fresh array with the same contents, and a list in another order: each still maps its own way.
    expect(THINGS.fromRow({ ...row, count: '8' }, ['count', 'id'])).toEqual({ count: 8, id: 'i' });
    expect(Object.keys(THINGS.fromRow(row, ['id', 'count']))).toEqual(['id', 'count']);
    // A column absent from the row reads as undefined, as before.
    expect(THINGS.fromRow({ id: 'i' }, ['id', 'settings'])).toEqual({ id: 'i', settings: undefined });
  });

  it('quotes odd property and column names instead of running them', () => {
    const ODD = defineTable<{ 'a"b': string; c: number }>('odd', { 'a"b': column.text('x"); throw 1; ("'), c: column.int('c') });
    expect(ODD.fromRow({ 'x"); throw 1; ("': 'v', c: 3 })).toEqual({ 'a"b': 'v', c: 3 });
  });
});
