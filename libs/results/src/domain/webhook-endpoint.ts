import { isIP } from 'node:net';
import { AppError } from '@outreach/core';
import { isPublicAddress } from './network-address';

export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const MAX_WEBHOOK_ENDPOINTS = 20;
/** After a rotation the previous secret still signs deliveries for this long. */
export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;

function badUrl(message: string): AppError {
  return new AppError('invalid_body', { issues: [{ path: 'url', message }] });
}

/** Shape of a webhook URL: absolute http(s), a host, no user:password@. 400 invalid_body at `url`. */
export function parseWebhookUrl(raw: string): URL {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) throw badUrl(`url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badUrl('url must be an absolute http or https URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badUrl('url must use http or https');
  if (url.username || url.password) throw badUrl('url may not carry credentials');
  if (!url.hostname) throw badUrl('url must name a host');
  return url;
}

/** The host of a URL without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * Refuses targets inside the network (loopback, private, link-local…) unless allowed. `addresses`
 * are what the host resolves to (the host itself when it is an IP literal); null = unresolvable.
 */
export function assertPublicTarget(host: string, addresses: readonly string[] | null): void {
  if (addresses === null || addresses.length === 0) throw badUrl(`host ${host} does not resolve`);
  const inside = addresses.find((a) => !isPublicAddress(a));
  if (inside !== undefined) {
    throw badUrl(
      isIP(host) ? `url targets a private, loopback or reserved address` : `host ${host} resolves to a private, loopback or reserved address`,
    );
  }
}

/**
 * The secrets that sign a delivery now: the current one, and the previous one during its overlap.
 * Generic so a store can pick the sealed values first and unseal only those it will use.
 */
export function signingSecrets<S>(
  endpoint: { secret: S; previousSecret: S | null; previousSecretExpiresAt: Date | null },
  now: Date,
): S[] {
  const secrets = [endpoint.secret];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt.getTime() > now.getTime()) {
    secrets.push(endpoint.previousSecret);
  }
  return secrets;
}
