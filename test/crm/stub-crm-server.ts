import { readFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';

/*
 * One local server speaking the request/response shapes of HubSpot (CRM v3 objects, v3 lists,
 * account info, settings users), Shopify (Admin REST 2024-10: shop, access scopes, customers and
 * saved searches with Link-header cursors) and Pipedrive (v1 users/me, persons with start/limit,
 * filters, and the OAuth token endpoint: authorization-code grant), built from the recorded fixtures in test/fixtures/crm/. Faults are injected per test:
 * a run of 503s, 429s with Retry-After, a 200 that is not JSON, a request held until released.
 */
const fixture = (name: string) => JSON.parse(readFileSync(join(__dirname, '../fixtures/crm', name), 'utf8'));

export const HUBSPOT_TOKEN = 'pat-na1-11111111-2222-3333-4444-555555555555';
export const SHOPIFY_TOKEN = 'shpat_0123456789abcdef0123456789abcdef';
export const PIPEDRIVE_TOKEN = 'v1u:pipedrive-oauth-access-token';
/** The service's Pipedrive app and one sign-in's authorization code, as the stub's token endpoint knows them. */
export const PIPEDRIVE_CLIENT_ID = 'b4e1c0ffee1d2a3b';
export const PIPEDRIVE_CLIENT_SECRET = 'pipedrive-client-secret-0123456789abcdef';
export const PIPEDRIVE_AUTH_CODE = '11111111.2222.3333aaaa4444bbbb5555cccc6666dddd7777';
export const PIPEDRIVE_REDIRECT_URI = 'https://outreach.test/crm/oauth/pipedrive/callback';
export const PIPEDRIVE_REFRESH_TOKEN = 'v1r:pipedrive-oauth-refresh-token';

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

/** An answer instead of the route's; status 0 drops the connection without answering. */
type Fault = { status: number; headers?: Record<string, string>; body?: string };

/** HubSpot contact i (1-based): the fixture's shape, every value a function of i. */
export function hubspotContact(i: number) {
  const base = fixture('hubspot-contact.json');
  const id = String(100 + i);
  return {
    ...base,
    id,
    properties: {
      ...base.properties,
      hs_object_id: id,
      email: `contact${i}@acme.example`,
      firstname: 'Contact',
      lastname: String(i),
      phone: `+1 617 ${200 + Math.floor(i / 10000)} ${String(i % 10000).padStart(4, '0')}`,
    },
  };
}

/** Shopify customer i (1-based). */
export function shopifyCustomer(i: number) {
  const base = fixture('shopify-customer.json');
  return {
    ...base,
    id: 207119000 + i,
    email: `customer${i}@shop.example`,
    first_name: 'Customer',
    last_name: String(i),
    phone: i % 4 === 0 ? null : `+1 513 ${200 + Math.floor(i / 10000)} ${String(i % 10000).padStart(4, '0')}`,
    default_address: { ...base.default_address, phone: i % 4 === 0 ? `+1 859 200 ${String(i % 10000).padStart(4, '0')}` : base.default_address.phone },
  };
}

export class StubCrmServer {
  readonly requests: SeenRequest[] = [];
  hubspotContacts = 0;
  /** HubSpot list id → member indexes. */
  hubspotLists = new Map<string, number[]>();
  shopifyCustomers = 0;
  pipedrivePersons = 0;
  private faults: Array<{ match: (r: SeenRequest) => boolean; fault: Fault }> = [];
  private holds: Array<{ match: (r: SeenRequest) => boolean; release: Promise<void> }> = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** The next `times` requests matching `path` answer `fault` instead. */
  failNext(times: number, path: RegExp, fault: Fault): void {
    for (let i = 0; i < times; i++) this.faults.push({ match: (r) => path.test(r.path), fault });
  }

  /** Requests matching `path` after the first `skip` ones wait until the returned function is called. */
  hold(path: RegExp, skip: number): () => void {
    let seen = 0;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    this.holds.push({ match: (r) => path.test(r.path) && seen++ >= skip, release: released });
    return release;
  }

  reset(): void {
    this.requests.length = 0;
    this.usedCodes.clear();
    this.faults = [];
    this.holds = [];
  }

  seen(path: RegExp): SeenRequest[] {
    return this.requests.filter((r) => path.test(r.path));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', this.url);
      const seen: SeenRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      this.requests.push(seen);
      const hold = this.holds.find((h) => h.match(seen));
      void (hold ? hold.release : Promise.resolve()).then(() => {
        const fault = this.faults.findIndex((f) => f.match(seen));
        if (fault >= 0) {
          const { status, headers, body } = this.faults.splice(fault, 1)[0].fault;
          if (status === 0) {
            req.socket.destroy(); // connection dropped: the client sees a network error
            return;
          }
          res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body ?? JSON.stringify({ status: 'error', message: `stub ${status}` }));
          return;
        }
        try {
          const [status, body, headers] = this.route(seen);
          res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
        } catch (error) {
          res.writeHead(500).end(String(error));
        }
      });
    });
  }

  private route(r: SeenRequest): [number, unknown, Record<string, string>?] {
    if (r.path.startsWith('/admin/')) return this.shopify(r);
    if (r.path.startsWith('/api/v1/')) return this.pipedrive(r);
    if (r.path === '/oauth/token') return this.pipedriveToken(r);
    return this.hubspot(r);
  }

  // ---- HubSpot -------------------------------------------------------------------------

  private hubspot(r: SeenRequest): [number, unknown, Record<string, string>?] {
    const errors = fixture('hubspot-errors.json');
    if (r.headers.authorization !== `Bearer ${HUBSPOT_TOKEN}`) return [401, errors.unauthorized];
    if (r.path === '/account-info/v3/details') return [200, fixture('hubspot-account-details.json')];
    if (r.path === '/settings/v3/users') return [200, { results: [{ id: '1234567', email: 'owner@acme.example', roleIds: [], primaryTeamId: '1' }] }];
    if (r.path === '/crm/v3/objects/contacts' && r.method === 'GET') {
      const limit = Number(r.query.get('limit') ?? 10);
      const from = Number(r.query.get('after') ?? 0);
      const ids = Array.from({ length: Math.max(0, Math.min(limit, this.hubspotContacts - from)) }, (_, k) => from + k + 1);
      const next = from + ids.length < this.hubspotContacts ? String(from + ids.length) : null;
      return [200, { results: ids.map(hubspotContact), ...(next ? { paging: { next: { after: next, link: `https://api.hubapi.com/crm/v3/objects/contacts?after=${next}` } } } : {}) }];
    }
    const one = /^\/crm\/v3\/objects\/contacts\/([0-9]+)$/.exec(r.path);
    if (one) {
      const i = Number(one[1]) - 100;
      return i >= 1 && i <= this.hubspotContacts ? [200, hubspotContact(i)] : [404, errors.notFound];
    }
    if (r.path === '/crm/v3/objects/contacts/batch/read' && r.method === 'POST') {
      const { inputs } = JSON.parse(r.body) as { inputs: Array<{ id: string }> };
      const now = new Date().toISOString();
      return [200, { status: 'COMPLETE', results: inputs.map((x) => hubspotContact(Number(x.id) - 100)), startedAt: now, completedAt: now }];
    }
    const list = /^\/crm\/v3\/lists\/([0-9]+)(\/memberships)?$/.exec(r.path);
    if (list) {
      const members = this.hubspotLists.get(list[1]);
      if (!members) return [404, errors.notFound];
      if (!list[2]) {
        return [200, { list: { listId: list[1], name: `List ${list[1]}`, objectTypeId: '0-1', processingType: 'MANUAL', size: members.length, createdAt: '2026-10-01T00:00:00Z' } }];
      }
      const limit = Number(r.query.get('limit') ?? 100);
      const from = Number(r.query.get('after') ?? 0);
      const page = members.slice(from, from + limit);
      const next = from + page.length < members.length ? String(from + page.length) : null;
      return [200, { results: page.map((i) => ({ recordId: String(100 + i), membershipTimestamp: '2026-10-01T00:00:00Z' })), ...(next ? { paging: { next: { after: next } } } : {}) }];
    }
    return [404, errors.notFound];
  }

  // ---- Shopify ---------------------------------------------------------------------------

  private shopify(r: SeenRequest): [number, unknown, Record<string, string>?] {
    if (r.headers['x-shopify-access-token'] !== SHOPIFY_TOKEN) return [401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' }];
    if (r.path === '/admin/oauth/access_scopes.json') return [200, { access_scopes: [{ handle: 'read_customers' }, { handle: 'write_customers' }] }];
    if (r.path === '/admin/api/2024-10/shop.json') return [200, fixture('shopify-shop.json')];
    if (r.path === '/admin/api/2024-10/customers.json') {
      const limit = Number(r.query.get('limit') ?? 50);
      const from = Number(Buffer.from(r.query.get('page_info') ?? 'MA', 'base64url').toString('utf8') || 0);
      const count = Math.max(0, Math.min(limit, this.shopifyCustomers - from));
      const customers = Array.from({ length: count }, (_, k) => shopifyCustomer(from + k + 1));
      const links: string[] = [];
      const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
      if (from > 0) links.push(`<${this.url}/admin/api/2024-10/customers.json?limit=${limit}&page_info=${cursor(Math.max(0, from - limit))}>; rel="previous"`);
      if (from + count < this.shopifyCustomers) links.push(`<${this.url}/admin/api/2024-10/customers.json?limit=${limit}&page_info=${cursor(from + count)}>; rel="next"`);
      return [200, { customers }, links.length ? { link: links.join(', ') } : {}];
    }
    if (/^\/admin\/api\/2024-10\/customer_saved_searches\/[0-9]+\.json$/.test(r.path)) return [404, { errors: 'Not Found' }];
    return [404, { errors: 'Not Found' }];
  }

  // ---- Pipedrive -------------------------------------------------------------------------

  /** POST /oauth/token (oauth.pipedrive.com): Basic client credentials, form body; a code is good once. */
  private usedCodes = new Set<string>();
  private pipedriveToken(r: SeenRequest): [number, unknown, Record<string, string>?] {
    const basic = `Basic ${Buffer.from(`${PIPEDRIVE_CLIENT_ID}:${PIPEDRIVE_CLIENT_SECRET}`).toString('base64')}`;
    if (r.method !== 'POST' || r.headers.authorization !== basic) return [401, { success: false, error: 'unauthorized', error_description: 'Invalid client credentials' }];
    if (!String(r.headers['content-type']).startsWith('application/x-www-form-urlencoded')) return [400, { success: false, error: 'invalid_request' }];
    const form = new URLSearchParams(r.body);
    if (form.get('grant_type') !== 'authorization_code' || form.get('redirect_uri') !== PIPEDRIVE_REDIRECT_URI) return [400, { success: false, error: 'invalid_request' }];
    const code = form.get('code') ?? '';
    if (code !== PIPEDRIVE_AUTH_CODE || this.usedCodes.has(code)) return [400, { success: false, error: 'invalid_grant', error_description: 'Invalid grant: authorization code is invalid' }];
    this.usedCodes.add(code);
    return [200, { access_token: PIPEDRIVE_TOKEN, token_type: 'Bearer', refresh_token: PIPEDRIVE_REFRESH_TOKEN, scope: 'base,contacts:read', expires_in: 3599, api_domain: 'https://acme.pipedrive.com' }];
  }

  private pipedrive(r: SeenRequest): [number, unknown, Record<string, string>?] {
    if (r.headers.authorization !== `Bearer ${PIPEDRIVE_TOKEN}`) return [401, { success: false, error: 'unauthorized access', errorCode: 401, error_info: 'Please check developers.pipedrive.com' }];
    if (r.path === '/api/v1/users/me') return [200, { success: true, data: { id: 123, name: 'Jane Doe', email: 'jane@pipedrive.example', company_name: 'Acme', company_domain: 'acme' } }];
    if (r.path === '/api/v1/persons') {
      const start = Number(r.query.get('start') ?? 0);
      const limit = Number(r.query.get('limit') ?? 100);
      const count = Math.max(0, Math.min(limit, this.pipedrivePersons - start));
      const base = fixture('pipedrive-person.json');
      const data = Array.from({ length: count }, (_, k) => {
        const i = start + k + 1;
        return { ...base, id: i, name: `Person ${i}`, first_name: 'Person', last_name: String(i), phone: [{ value: `+1 617 300 ${String(i).padStart(4, '0')}`, primary: true, label: 'work' }] };
      });
      const more = start + count < this.pipedrivePersons;
      return [200, { success: true, data: count ? data : null, additional_data: { pagination: { start, limit, more_items_in_collection: more, ...(more ? { next_start: start + count } : {}) } } }];
    }
    return [404, { success: false, error: 'Not found', errorCode: 404 }];
  }
}
