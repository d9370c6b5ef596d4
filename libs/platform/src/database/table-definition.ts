/**
 * One definition per table (decisions.md 8.3): a table's columns are declared
 * once, as a typed map from a record's property names to column codecs. The SELECT list, the
 * INSERT and UPDATE statements, the parameter lists and the row mapper are all derived from it,
 * and hand-written SQL (hot paths, joins, locks) takes its column names from `t.c.<property>`.
 *
 *   export const CAMPAIGNS = defineTable('campaigns', {
 *     id: column.uuid('id'),
 *     timezone: column.text('timezone'),
 *     settings: column.json<Partial<CampaignSettings>>('settings'),
 *   });
 *   CAMPAIGNS.select('c')          // "c.id, c.timezone, c.settings"
 *   CAMPAIGNS.insert(record)       // { sql: 'INSERT INTO campaigns (id, …) VALUES ($1, …)', params }
 *   CAMPAIGNS.fromRow(row)         // { id, timezone, settings } typed as the record
 *   `… WHERE ${CAMPAIGNS.c.timezone} = $1`
 *
 * Rows are read with the pg driver's own parsing (timestamptz → Date, jsonb → value, arrays →
 * arrays); a codec only converts what the driver does not (bigint text → number, jsonb writes).
 */

/** How one property is stored in one column. */
export interface ColumnCodec<T> {
  /** The column's name in SQL. */
  readonly name: string;
  /** A cast appended to the placeholder (`$3::jsonb`), when the driver needs one. */
  readonly cast?: string;
  /** Row value → property value. */
  read(value: unknown): T;
  /** Property value → query parameter. */
  write(value: T): unknown;
}

/** The read of a column the driver already parses: compiled row mappers copy such a value directly. */
const asIs = <T>(value: unknown): T => value as T;

const same = <T>(name: string, cast?: string): ColumnCodec<T> => ({
  name,
  cast,
  read: asIs<T>,
  write: (value) => value,
});

type RowReader<R> = (row: Record<string, unknown>) => R;

/**
 * A row mapper for one property list and prefix, compiled to a single object literal (decisions.md
 * 46.2): every record it returns has the same shape, where assigning the properties one by one in a
 * loop left V8 a keyed store per property (a 300,000-row export spent 4.5 % of its time there).
 * Property and column names come from the table's declaration in code, never from input; they are
 * quoted as JSON string literals all the same.
 */
function compileReader<R>(columns: Columns<R>, only: readonly (keyof R)[], prefix: string): RowReader<R> {
  const reads = only.map((k) => columns[k].read);
  const fields = only.map((k, i) => {
    const value = `row[${JSON.stringify(prefix + columns[k].name)}]`;
    return `${JSON.stringify(String(k))}: ${reads[i] === asIs ? value : `read[${i}](${value})`}`;
  });
  return new Function('read', `return function fromRow(row) { return { ${fields.join(', ')} }; };`)(reads) as RowReader<R>;
}

/** The column codecs a table definition is made of. */
export const column = {
  uuid: (name: string) => same<string>(name),
  nullableUuid: (name: string) => same<string | null>(name),
  text: <T extends string = string>(name: string) => same<T>(name),
  nullableText: <T extends string = string>(name: string) => same<T | null>(name),
  int: (name: string) => same<number>(name),
  nullableInt: (name: string) => same<number | null>(name),
  bool: (name: string) => same<boolean>(name),
  timestamp: (name: string) => same<Date>(name),
  nullableTimestamp: (name: string) => same<Date | null>(name),
  textArray: <T extends string = string>(name: string) => same<T[]>(name, 'text[]'),
  nullableTextArray: <T extends string = string>(name: string) => same<T[] | null>(name, 'text[]'),
  /** double precision: the driver parses it. */
  double: (name: string) => same<number>(name),
  nullableDouble: (name: string) => same<number | null>(name),
  /** bigint (money, sequences): pg returns text; values stay below 2^53 by the callers' own bounds. */
  bigint: (name: string): ColumnCodec<number> => ({
    name,
    read: (value) => Number(value),
    write: (value) => value,
  }),
  /** bigint kept as the driver's decimal text: sequence numbers that serve as cursor positions. */
  bigintText: (name: string) => same<string>(name),
  nullableBigint: (name: string): ColumnCodec<number | null> => ({
    name,
    read: (value) => (value === null || value === undefined ? null : Number(value)),
    write: (value) => value,
  }),
  /** jsonb: written as JSON text with a cast, read as the driver parsed it. */
  json: <T>(name: string): ColumnCodec<T> => ({
    name,
    cast: 'jsonb',
    read: (value) => value as T,
    write: (value) => (value === null || value === undefined ? null : JSON.stringify(value)),
  }),
  /** bytea: Buffers both ways. */
  bytes: (name: string) => same<Buffer>(name),
  nullableBytes: (name: string) => same<Buffer | null>(name),
  /** Any codec with a read-side transformation (e.g. filling defaults into a jsonb document). */
  mapped: <T, S>(inner: ColumnCodec<S>, read: (stored: S) => T, write: (value: T) => S): ColumnCodec<T> => ({
    name: inner.name,
    cast: inner.cast,
    read: (value) => read(inner.read(value)),
    write: (value) => inner.write(write(value)),
  }),
};

type Columns<R> = { readonly [K in keyof R]: ColumnCodec<R[K]> };

/** A parametrised statement. */
export interface Statement {
  sql: string;
  params: unknown[];
}

export interface TableDefinition<R> {
  /** The table's name in SQL. */
  readonly name: string;
  /** Column names by property: `t.c.workspaceId` is `workspace_id`. */
  readonly c: { readonly [K in keyof R]: string };
  /** The codecs, by property. */
  readonly columns: Columns<R>;
  /** The property names, in declaration order. */
  readonly keys: readonly (keyof R)[];
  /**
   * The SELECT list of the given properties (all by default), qualified with `alias` when given;
   * each column comes back under its own name, so `fromRow` reads it. With `prefix` (joins whose
   * tables share column names) each comes back as `<prefix><name>`; read it with the same prefix.
   */
  select(alias?: string, keys?: readonly (keyof R)[], prefix?: string): string;
  /** Row (as returned by the driver) → record; only the given properties (all by default). */
  fromRow(row: Record<string, unknown>): R;
  fromRow<K extends keyof R>(row: Record<string, unknown>, keys: readonly K[], prefix?: string): Pick<R, K>;
  /** `INSERT INTO t (…) VALUES (…)` of a whole record; `suffix` is appended (ON CONFLICT …, RETURNING …). */
  insert(record: R, suffix?: string): Statement;
  /** INSERT of the given properties only: the other columns take their defaults (serials, generated ids). */
  insert<K extends keyof R>(record: Pick<R, K>, suffix: string, props: readonly K[]): Statement;
  /**
   * `INSERT INTO t (…) SELECT <the record's values> FROM <from>` of a whole record: the row is made
   * only once `from` (a CTE name, say) has been read, e.g. after a `set_config` it selects.
   */
  insertSelect(record: R, from: string, suffix?: string): Statement;
  /** Multi-row INSERT of whole records. */
  insertMany(records: readonly R[], suffix?: string): Statement;
  /** Multi-row INSERT of the given properties only. */
  insertMany<K extends keyof R>(records: readonly Pick<R, K>[], suffix: string, props: readonly K[]): Statement;
  /**
   * `UPDATE t SET … WHERE <key columns> = …` of the given properties (all but the keys by
   * default). Append further conditions with placeholders numbered after `params.length`.
   */
  update(record: R, keyProps: readonly (keyof R)[], setProps?: readonly (keyof R)[]): Statement;
  /** UPDATE from a partial record: the given key and set properties only. */
  update<K extends keyof R>(record: Pick<R, K>, keyProps: readonly K[], setProps: readonly K[]): Statement;
  /** Property value → query parameter (jsonb as text…), for hand-written statements. */
  param<K extends keyof R>(key: K, value: R[K]): unknown;
}

/** Declares a table once; see the file comment. */
export function defineTable<R>(name: string, columns: Columns<R>): TableDefinition<R> {
  const keys = Object.keys(columns) as (keyof R)[];
  const c = Object.fromEntries(keys.map((k) => [k, columns[k].name])) as { [K in keyof R]: string };
  const placeholder = (key: keyof R, index: number): string => {
    const cast = columns[key].cast;
    return cast ? `$${index}::${cast}` : `$${index}`;
  };
  const values = (record: Partial<R>, props: readonly (keyof R)[]): unknown[] => props.map((k) => columns[k].write(record[k] as R[keyof R]));
  const ending = (suffix: string): string => (suffix ? ' ' + suffix : '');

  // Compiled readers by the property list's identity (callers pass constant arrays), then by
  // prefix; a list seen for the first time is looked up by its contents, so a caller passing a
  // fresh array each time reuses one compiled reader.
  const readers = new WeakMap<readonly (keyof R)[], Map<string, RowReader<R>>>();
  const byContents = new Map<string, RowReader<R>>();
  function fromRow(row: Record<string, unknown>, only: readonly (keyof R)[] = keys, prefix = ''): R {
    let byPrefix = readers.get(only);
    if (!byPrefix) readers.set(only, (byPrefix = new Map()));
    let reader = byPrefix.get(prefix);
    if (!reader) {
      const contents = `${prefix}|${only.join(',')}`;
      reader = byContents.get(contents);
      if (!reader) byContents.set(contents, (reader = compileReader(columns, only, prefix)));
      byPrefix.set(prefix, reader);
    }
    return reader(row);
  }

  function insert(record: Partial<R>, suffix = '', props: readonly (keyof R)[] = keys): Statement {
    const list = props.map((k) => columns[k].name).join(', ');
    const marks = props.map((k, i) => placeholder(k, i + 1)).join(', ');
    return { sql: `INSERT INTO ${name} (${list}) VALUES (${marks})${ending(suffix)}`, params: values(record, props) };
  }

  function insertSelect(record: R, from: string, suffix = ''): Statement {
    const list = keys.map((k) => columns[k].name).join(', ');
    const marks = keys.map((k, i) => placeholder(k, i + 1)).join(', ');
    return { sql: `INSERT INTO ${name} (${list}) SELECT ${marks} FROM ${from}${ending(suffix)}`, params: values(record, keys) };
  }

  function insertMany(records: readonly Partial<R>[], suffix = '', props: readonly (keyof R)[] = keys): Statement {
    const list = props.map((k) => columns[k].name).join(', ');
    const params: unknown[] = [];
    const tuples = records.map((record) => {
      const marks = props.map((k) => {
        params.push(columns[k].write(record[k] as R[keyof R]));
        return placeholder(k, params.length);
      });
      return `(${marks.join(', ')})`;
    });
    return { sql: `INSERT INTO ${name} (${list}) VALUES ${tuples.join(', ')}${ending(suffix)}`, params };
  }

  function update(record: Partial<R>, keyProps: readonly (keyof R)[], setProps?: readonly (keyof R)[]): Statement {
    const set = setProps ?? keys.filter((k) => !keyProps.includes(k));
    const assignments = set.map((k, i) => `${columns[k].name} = ${placeholder(k, i + 1)}`).join(', ');
    const where = keyProps.map((k, i) => `${columns[k].name} = ${placeholder(k, set.length + i + 1)}`).join(' AND ');
    return { sql: `UPDATE ${name} SET ${assignments} WHERE ${where}`, params: [...values(record, set), ...values(record, keyProps)] };
  }

  return {
    name,
    c,
    columns,
    keys,
    select(alias, only = keys, prefix) {
      const qualifier = alias ? `${alias}.` : '';
      const rename = (column: string) => (prefix ? ` AS ${prefix}${column}` : '');
      return only.map((k) => qualifier + columns[k].name + rename(columns[k].name)).join(', ');
    },
    fromRow: fromRow as TableDefinition<R>['fromRow'],
    insert: insert as TableDefinition<R>['insert'],
    insertSelect,
    insertMany: insertMany as TableDefinition<R>['insertMany'],
    update: update as TableDefinition<R>['update'],
    param(key, value) {
      return columns[key].write(value);
    },
  };
}
