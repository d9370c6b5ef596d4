import { createHash } from 'node:crypto';

type Env = Record<string, string | undefined>;

/**
 * Reads typed values from the environment, collecting one readable problem per bad variable
 * instead of stopping at the first. Used by the platform's own keys and by every module's
 * `<module>.config.ts` fragment.
 */
export class EnvReader {
  readonly problems: string[] = [];

  constructor(private readonly env: Env) {}

  /** The raw value ('' counts as unset). */
  raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value === '' ? undefined : value;
  }

  problem(text: string): void {
    this.problems.push(text);
  }

  str(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  optional(name: string): string | null {
    return this.raw(name) ?? null;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      this.problem(`${name}=${JSON.stringify(raw)}: expected a whole number from ${min} to ${max}`);
      return fallback;
    }
    return Number(raw);
  }

  url(name: string, fallback: string, protocols: string[]): string {
    const value = this.str(name, fallback);
    try {
      const parsed = new URL(value);
      if (!protocols.includes(parsed.protocol)) {
        this.problem(`${name}: expected a ${protocols.join(' or ')} URL, got protocol ${parsed.protocol}`);
      }
    } catch {
      this.problem(`${name}: not a valid URL`);
    }
    return value;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    this.problem(`${name}=${JSON.stringify(raw)}: expected true or false`);
    return fallback;
  }

  oneOf<T extends string>(name: string, fallback: T, values: readonly T[]): T {
    const value = this.str(name, fallback) as T;
    if (!values.includes(value)) this.problem(`${name}=${JSON.stringify(value)}: expected one of ${values.join(', ')}`);
    return value;
  }

  /**
   * A 32-byte key as 64 hex characters or base64. Required in production; elsewhere a fixed
   * development key derived from `developmentLabel` (so restarts still read what they sealed).
   */
  key32(name: string, developmentLabel: string): { key: Buffer; isDefault: boolean } {
    const raw = this.raw(name);
    if (raw === undefined) {
      if (this.str('NODE_ENV', 'development') === 'production') this.problem(`${name}: required in production (32 bytes, hex or base64)`);
      return { key: createHash('sha256').update(developmentLabel).digest(), isDefault: true };
    }
    const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
    if (key.length !== 32) this.problem(`${name}: expected 32 bytes as 64 hex characters or base64`);
    return { key, isDefault: false };
  }
}
