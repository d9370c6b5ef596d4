import type { EnvReader } from './env-reader';

/**
 * A module's configuration keys: `<module>.config.ts` declares them once with `defineConfig`,
 * which registers the reader when the module is loaded; `loadConfig` reads and validates every
 * registered fragment with the platform's own keys at boot (one readable line per bad variable),
 * and the values join the one `AppConfig` the platform injects. The module adds its keys to that
 * type with
 *
 *   declare module '@outreach/core' {
 *     interface ConfigValues extends ConfigOf<typeof CALLS_CONFIG> {}
 *   }
 */
export interface ConfigFragment<T extends object> {
  readonly owner: string;
  read(env: EnvReader, values: Readonly<Record<string, unknown>>): T;
}

/** Every module's configuration keys (declaration merging, see above); the platform's AppConfig extends it. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ConfigValues {}

export type ConfigOf<F> = F extends ConfigFragment<infer T> ? T : never;

const fragments = new Map<string, ConfigFragment<object>>();

/**
 * Registers a module's configuration reader. `read` gets the environment reader and the values
 * read so far (the platform's, e.g. `nodeEnv`), for cross-checks.
 */
export function defineConfig<T extends object>(owner: string, read: ConfigFragment<T>['read']): ConfigFragment<T> {
  const fragment: ConfigFragment<T> = { owner, read };
  fragments.set(owner, fragment);
  return fragment;
}

export function registeredConfigFragments(): ConfigFragment<object>[] {
  return [...fragments.values()];
}
