/** A record as the API shows it: its dates as ISO 8601 strings. */
export type WithIsoDates<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

/** Top-level Date values → ISO strings; everything else as is. */
export function withIsoDates<T extends object>(record: T): WithIsoDates<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) out[key] = value instanceof Date ? value.toISOString() : value;
  return out as WithIsoDates<T>;
}
