import { AppError } from '@outreach/core';
import { CrmRateLimited } from '../../application/crm.ports';

export interface CrmResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * One request to a CRM, with its answers turned into the crm codes: refused / timed out → 502
 * crm_upstream_unavailable; 401 and 403 → 400 invalid_credentials (unless the caller reads them,
 * `allow`); 404 → 404 crm_resource_not_found; 429 → CrmRateLimited (Retry-After); any other non-2xx
 * → 502 provider_error with upstreamStatus; a 2xx that is not JSON → 502 crm_upstream_error.
 * Messages name the CRM and the path, never a header or a query value (credentials stay out of
 * logs and answers).
 */
export async function crmRequest(
  crm: string,
  url: string,
  init: { method?: string; headers: Record<string, string>; body?: unknown; timeoutMs: number; allow?: readonly number[] },
): Promise<CrmResponse> {
  const path = new URL(url).pathname;
  let res: Response;
  // A form (URLSearchParams: OAuth token requests) is sent form-encoded, anything else as JSON.
  const form = init.body instanceof URLSearchParams;
  const contentType: Record<string, string> = init.body === undefined ? {} : { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' };
  try {
    res = await fetch(url, {
      method: init.method ?? 'GET',
      headers: { accept: 'application/json', ...contentType, ...init.headers },
      body: init.body === undefined ? undefined : form ? String(init.body) : JSON.stringify(init.body),
      signal: AbortSignal.timeout(init.timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError';
    throw new AppError('crm_upstream_unavailable', { message: `${crm} ${timedOut ? 'did not answer in time' : 'is unreachable'} (${path})` });
  }
  const text = await res.text().catch(() => '');
  if (init.allow?.includes(res.status)) return { status: res.status, headers: res.headers, body: parseJson(text) };
  if (res.status === 429) {
    const seconds = Number(res.headers.get('retry-after'));
    throw new CrmRateLimited(Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null);
  }
  if (res.status === 401 || res.status === 403) throw new AppError('invalid_credentials', { message: `${crm} refused the credentials (${res.status})` });
  if (res.status === 404) throw new AppError('crm_resource_not_found', { message: `${crm} has no ${path}` });
  if (res.status < 200 || res.status > 299) {
    throw new AppError('provider_error', { message: `${crm} answered ${res.status} (${path})`, upstreamStatus: res.status });
  }
  const body = parseJson(text);
  if (body === undefined) throw new AppError('crm_upstream_error', { message: `${crm} answered ${res.status} without JSON (${path})` });
  return { status: res.status, headers: res.headers, body };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A 2xx body the adapter could not read. */
export function unexpected(crm: string, what: string): AppError {
  return new AppError('crm_upstream_error', { message: `${crm} answered an unexpected ${what}` });
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A field value as text (numbers and booleans as written; objects and arrays are not fields). */
export function asText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

/** A required text credential, else 400 invalid_credentials naming the member. */
export function credential(credentials: Readonly<Record<string, string>>, name: string): string {
  const value = credentials[name];
  if (typeof value !== 'string' || value.trim() === '') throw new AppError('invalid_credentials', { message: `credentials.${name} is required` });
  return value;
}
