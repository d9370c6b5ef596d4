import { lookup as dnsLookup, LookupAddress, LookupOptions } from 'node:dns';
import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { Injectable } from '@nestjs/common';
import { WebhookRequest, WebhookResponse, WebhookSender } from '../application/results.ports';
import { isPublicAddress } from '../domain/network-address';

/** Bytes of a receiver's answer read before the connection is dropped (only the status matters). */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs with node:http(s): no redirects followed, one deadline for the whole exchange, and a DNS
 * lookup that refuses private, loopback and link-local addresses at connection time (so a name
 * that re-resolves inside after the URL was checked is still refused).
 */
@Injectable()
export class NodeHttpWebhookSender extends WebhookSender {
  send(req: WebhookRequest): Promise<WebhookResponse> {
    const started = process.hrtime.bigint();
    const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
    return new Promise<WebhookResponse>((resolve) => {
      let settled = false;
      const timer: { deadline?: NodeJS.Timeout } = {};
      const finish = (statusCode: number | null, error: string | null, retryAfter?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer.deadline);
        resolve({ statusCode, error, retryAfter, durationMs: elapsed() });
      };
      let url: URL;
      try {
        url = new URL(req.url);
      } catch {
        return finish(null, 'invalid url');
      }
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) && !req.allowPrivateTargets && !isPublicAddress(host)) {
        return finish(null, 'refused: the target address is private, loopback or reserved');
      }
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const outgoing = send(url, {
        method: 'POST',
        headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
        lookup: guardedLookup(req.allowPrivateTargets),
        agent: false,
      });
      timer.deadline = setTimeout(() => {
        outgoing.destroy(new Error(`timed out after ${req.timeoutMs} ms`));
      }, req.timeoutMs);
      outgoing.on('error', (error) => finish(null, error.message));
      outgoing.on('response', (res: IncomingMessage) => {
        const retryAfter = headerValue(res.headers['retry-after']);
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) res.destroy();
        });
        res.on('end', () => finish(res.statusCode ?? null, null, retryAfter));
        res.on('close', () => finish(res.statusCode ?? null, null, retryAfter));
        res.on('error', () => finish(res.statusCode ?? null, null, retryAfter));
      });
      outgoing.end(req.body);
    });
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname: string, options: LookupOptions, callback: (...args: never[]) => void) => {
    const cb = callback as unknown as (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return cb(error, '');
      const refused = !allowPrivate && addresses.some((a) => !isPublicAddress(a.address));
      if (refused || addresses.length === 0) {
        const err: NodeJS.ErrnoException = new Error(`refused: ${hostname} resolves to a private, loopback or reserved address`);
        err.code = 'ETARGETREFUSED';
        return cb(err, '');
      }
      if (options.all) return cb(null, addresses);
      return cb(null, addresses[0].address, addresses[0].family);
    });
  };
}
