import { ConfigOf, defineConfig } from '@outreach/core';

function currency(value: string, problem: (text: string) => void): string {
  if (!/^[A-Z]{3}$/.test(value)) problem(`DEFAULT_CURRENCY=${JSON.stringify(value)}: expected an ISO 4217 code such as USD`);
  return value;
}

/** The configuration keys the workspaces module owns (validated at boot with every other module's). */
export const WORKSPACES_CONFIG = defineConfig('workspaces', (env) => ({
  /** Concurrency allocation of a new workspace (DEFAULT_CONCURRENCY). */
  defaultConcurrency: env.int('DEFAULT_CONCURRENCY', 10, 1, 10000),
  /** Agent quota of a new workspace (DEFAULT_AGENT_QUOTA). */
  defaultAgentQuota: env.int('DEFAULT_AGENT_QUOTA', 50, 0, 100000),
  /** Wallet currency of a new workspace, ISO 4217 (DEFAULT_CURRENCY). */
  defaultCurrency: currency(env.str('DEFAULT_CURRENCY', 'USD'), env.problem.bind(env)),
}));

declare module '@outreach/core' {
  interface ConfigValues extends ConfigOf<typeof WORKSPACES_CONFIG> {}
}
