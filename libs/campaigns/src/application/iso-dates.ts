/** A record as the API shows it: its dates as ISO 8601 strings. */
export type WithIsoDates<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

/** A Date from any realm (`instanceof` fails for one made by structuredClone in a vm context). */
function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]';
}

/** Top-level Date values → ISO strings; everything else as is. */
export function withIsoDates<T extends object>(record: T): WithIsoDates<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) out[key] = isDate(value) ? value.toISOString() : value;
  return out as WithIsoDates<T>;
}
