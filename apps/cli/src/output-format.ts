/*
 * How a command's answer is printed. `json` (the default) is the document scripts parse;
 * `table` is for people: an object as aligned `key  value` lines (nested objects as dotted keys),
 * a list of objects as an aligned table with a header row. Both are built from the answer's JSON
 * form, so dates and the like read exactly as in `json`.
 */

export const OUTPUT_FORMATS = ['json', 'table'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const GAP = '  ';
const NONE = '-';

export function renderAnswer(answer: unknown, format: OutputFormat): string {
  if (format === 'json') return `${JSON.stringify(answer, null, 2)}\n`;
  return `${renderForPeople(JSON.parse(JSON.stringify(answer ?? null)) as Json)}\n`;
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isListOfObjects(value: Json): value is JsonObject[] {
  return Array.isArray(value) && value.length > 0 && value.every(isObject);
}

function renderForPeople(value: Json): string {
  if (Array.isArray(value)) return isListOfObjects(value) ? table(value) : value.map(cell).join('\n');
  if (!isObject(value)) return cell(value);
  // {workspace: {...}}: the wrapper adds nothing for a reader.
  const keys = Object.keys(value);
  if (keys.length === 1 && isObject(value[keys[0]])) return renderForPeople(value[keys[0]]);

  const pairs: Array<[string, string]> = [];
  const lists: Array<[string, JsonObject[]]> = [];
  const flatten = (object: JsonObject, prefix: string) => {
    for (const [key, item] of Object.entries(object)) {
      const name = prefix + key;
      if (isListOfObjects(item)) lists.push([name, item]);
      else if (isObject(item) && Object.keys(item).length > 0) flatten(item, `${name}.`);
      else pairs.push([name, cell(item)]);
    }
  };
  flatten(value, '');

  const blocks: string[] = [];
  if (pairs.length > 0) blocks.push(keyValues(pairs));
  for (const [name, rows] of lists) blocks.push(lists.length === 1 && pairs.length === 0 ? table(rows) : `${name}:\n${table(rows)}`);
  return blocks.join('\n\n');
}

/** One value on one line: lists comma-separated, null as "-", objects as compact JSON. */
function cell(value: Json | undefined): string {
  if (value === null || value === undefined) return NONE;
  if (Array.isArray(value)) return value.length === 0 ? NONE : value.map((item) => (isObject(item) || Array.isArray(item) ? JSON.stringify(item) : cell(item))).join(',');
  if (isObject(value)) return Object.keys(value).length === 0 ? NONE : JSON.stringify(value);
  return String(value).replace(/\r?\n/g, '\\n').replace(/\t/g, ' ');
}

function keyValues(pairs: Array<[string, string]>): string {
  const width = Math.max(...pairs.map(([key]) => key.length));
  return pairs.map(([key, text]) => `${key.padEnd(width)}${GAP}${text}`).join('\n');
}

/** An aligned table: one column per member (in order of first appearance), one row per object. */
function table(rows: JsonObject[]): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cells = rows.map((row) => columns.map((column) => cell(row[column])));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((line) => line[i].length)));
  const line = (texts: string[]) => texts.map((text, i) => (i === texts.length - 1 ? text : text.padEnd(widths[i]))).join(GAP);
  return [line(columns), ...cells.map(line)].join('\n');
}
