import { AppError } from '@outreach/core';

export interface ProviderHttpOptions {
  /** Waits before each retry of a 5xx, a 429 or an unreachable provider; its length bounds the retries. */
  retryDelaysMs: readonly number[];
  /** Deadline of one request, ms. */
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** Three tries, 0.25 s then 1 s apart, 10 s each (decisions.md 27.6). */
export const DEFAULT_PROVIDER_HTTP: ProviderHttpOptions = { retryDelaysMs: [250, 1000], timeoutMs: 10_000 };

export interface ProviderResponse {
  status: number;
  /** The body parsed as JSON (null when it is not JSON). */
  json: Record<string, unknown> | null;
}

/**
 * A real voice provider's HTTP API as the adapters use it: a 5xx, a 429, a timeout or a connection
 * failure is retried with back-off a bounded number of times, then becomes provider_error (502,
 * upstreamStatus the provider's last status; none when it could not be reached). Any other answer
 * (2xx, 4xx) is returned for the adapter to map onto the contract's codes. Credentials travel in
 * the request's headers and never appear in an error's message.
 */
export class ProviderHttp {
  private readonly fetchFn: typeof fetch;

  constructor(
    private readonly provider: string,
    private readonly options: ProviderHttpOptions = DEFAULT_PROVIDER_HTTP,
  ) {
    this.fetchFn = options.fetch ?? fetch;
  }

  async request(method: string, url: string, init: { headers: Record<string, string>; body?: string }): Promise<ProviderResponse> {
    // The path names the operation; an account id in it (Twilio's /Accounts/{Sid}/) is left out of messages.
    const what = `${this.provider} ${method} ${new URL(url).pathname.replace(/\/Accounts\/[^/]+/, '/Accounts/{AccountSid}')}`;
    let last = '';
    let upstreamStatus: number | undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await this.fetchFn(url, { method, headers: init.headers, body: init.body, signal: AbortSignal.timeout(this.options.timeoutMs) });
        const text = await response.text();
        if (response.status < 500 && response.status !== 429) return { status: response.status, json: parseObject(text) };
        upstreamStatus = response.status;
        last = `answered ${response.status}`;
      } catch (error) {
        upstreamStatus = undefined;
        last = `could not be reached (${describe(error)})`;
      }
      const delay = this.options.retryDelaysMs[attempt];
      if (delay === undefined) break;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
    throw new AppError('provider_error', { message: `${what} ${last} after ${this.options.retryDelaysMs.length + 1} tries`, upstreamStatus });
  }
}

/** A 4xx the adapter has no better code for: provider_error with the provider's status and its own words. */
export function providerRejected(provider: string, response: ProviderResponse, detail: string): AppError {
  return new AppError('provider_error', { message: `${provider} refused the request (${response.status}): ${detail}`, upstreamStatus: response.status });
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timeout';
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** A string member of a provider's JSON, or null. */
export function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** An object member of a provider's JSON, or null. */
export function obj(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}
