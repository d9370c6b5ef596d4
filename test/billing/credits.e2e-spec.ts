import { randomUUID } from 'node:crypto';
import { CreditPendingRecharge, CreditWallet, DebitKind, RecordPendingRecharge, WalletDebits } from '@outreach/billing';
import { Clock, FixedClock } from '@outreach/platform';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { bearer, Seeded, TestApp } from '../support/test-app';

type Res = { status: number; body: Record<string, unknown>; headers: Record<string, string> };
type Entry = { id: string; kind: string; debitKind: string | null; amountMinor: number; balanceAfterMinor: number; createdAt: string };

const expectError = (res: Res, status: number, code: string) => {
  expect({ status: res.status, error: res.body.error }).toEqual({ status, error: code });
  expect(typeof res.body.requestId).toBe('string');
};

/** Issue 5: /credits over HTTP (scope billing.view), every billing error code. */
describe('credits API', () => {
  // A Wednesday, mid-month: periods have room on both sides.
  const start = new Date('2026-11-18T12:00:00Z');
  const clock = new FixedClock(start);
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock) });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    clock.set(start);
    await t.reset();
    ws = await t.seed();
  });

  const get = (path: string, key = ws.key) => t.http.get(path).set(bearer(key));
  const credit = (amountMinor: number, workspaceId = ws.workspaceId, reference?: string) =>
    t.get(CreditWallet).execute({ workspaceId, amountMinor, reference });
  const debit = (reference: string, amountMinor: number, kind: DebitKind = 'call', workspaceId = ws.workspaceId) =>
    t.get(WalletDebits).debit({ workspaceId, amountMinor, kind, reference, description: `debit ${reference}` });
  /** Every page of a ledger query, following nextCursor. */
  const allPages = async (query: string, limit = 50) => {
    const items: Entry[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(`/credits/ledger?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      items.push(...(res.body.items as Entry[]));
      cursor = res.body.nextCursor as string | null;
      pages++;
    } while (cursor && pages < 100);
    return items;
  };

  describe('GET /credits/balance', () => {
    it('answers balance, currency, trial end and canSpend', async () => {
      expect((await get('/credits/balance')).body).toEqual({ balanceMinor: 0, currency: 'USD', trialUntil: null, canSpend: false });
      await credit(250);
      await debit('c1', 40);
      expect((await get('/credits/balance')).body).toEqual({ balanceMinor: 210, currency: 'USD', trialUntil: null, canSpend: true });
      await debit('c2', 300);
      const trialUntil = new Date(start.getTime() + 86400_000);
      await t.get(WorkspaceAdministration).update(ws.workspaceId, { trialUntil });
      expect((await get('/credits/balance')).body).toEqual({
        balanceMinor: -90,
        currency: 'USD',
        trialUntil: trialUntil.toISOString(),
        canSpend: true,
      });
    });

    it('needs billing.view', async () => {
      const key = await t.addKey(ws.workspaceId, { scopes: ['calls.view'] });
      const res = await get('/credits/balance', key.key);
      expectError(res, 403, 'forbidden');
      expect(res.body.requiredPermission).toBe('billing.view');
      const viewer = await t.addKey(ws.workspaceId, { scopes: ['billing.view'] });
      expect((await get('/credits/balance', viewer.key)).status).toBe(200);
    });
  });

  describe('GET /credits/ledger', () => {
    it('lists newest first with kind filter; the ledger sums to the balance', async () => {
      await credit(1000);
      clock.advance(1000);
      await debit('call-1', 30);
      clock.advance(1000);
      await debit('msg-1', 1, 'message');
      clock.advance(1000);
      await debit('tc-1', 10, 'test_call');
      const res = await get('/credits/ledger');
      expect(res.status).toBe(200);
      expect(res.body.nextCursor).toBeNull();
      const items = res.body.items as Entry[];
      expect(items.map((e) => [e.kind, e.debitKind, e.amountMinor, e.balanceAfterMinor])).toEqual([
        ['debit', 'test_call', 10, 959],
        ['debit', 'message', 1, 969],
        ['debit', 'call', 30, 970],
        ['credit', null, 1000, 1000],
      ]);
      expect(items[0]).toMatchObject({ currency: 'USD', reference: 'tc-1', description: 'debit tc-1' });
      const sum = items.reduce((s, e) => s + (e.kind === 'credit' ? e.amountMinor : -e.amountMinor), 0);
      expect(sum).toBe((await get('/credits/balance')).body.balanceMinor);

      const debitsOnly = (await get('/credits/ledger?kind=debit')).body.items as Entry[];
      expect(debitsOnly.map((e) => e.amountMinor)).toEqual([10, 1, 30]);
      const creditsOnly = (await get('/credits/ledger?kind=credit')).body.items as Entry[];
      expect(creditsOnly.map((e) => e.amountMinor)).toEqual([1000]);
    });

    it('never shows another workspace’s entries', async () => {
      const other = await t.seed();
      await credit(77, other.workspaceId);
      await credit(5);
      expect(((await get('/credits/ledger')).body.items as Entry[]).map((e) => e.amountMinor)).toEqual([5]);
    });

    it('periods are evaluated in UTC at the clock’s now', async () => {
      const at = async (iso: string, amount: number) => {
        clock.set(new Date(iso));
        await debit(`d-${iso}`, amount);
      };
      clock.set(new Date('2026-09-30T10:00:00Z'));
      await credit(100_000);
      await at('2026-10-15T10:00:00Z', 1); // last month
      await at('2026-10-31T23:59:59Z', 2); // last month, last second
      await at('2026-11-01T00:00:00Z', 3); // this month, first instant
      await at('2026-11-11T23:59:59Z', 4); // 7 days ago: outside last_7_days
      await at('2026-11-12T00:00:00Z', 5); // first day of last_7_days
      await at('2026-11-17T23:59:59Z', 6); // yesterday
      await at('2026-11-18T00:00:00Z', 7); // today
      await at('2026-11-18T11:00:00Z', 8); // today
      clock.set(start); // 2026-11-18T12:00Z

      const amounts = async (query: string) => (await allPages(query)).filter((e) => e.kind === 'debit').map((e) => e.amountMinor).sort((a, b) => a - b);
      expect(await amounts('&period=today')).toEqual([7, 8]);
      expect(await amounts('&period=last_7_days')).toEqual([5, 6, 7, 8]);
      expect(await amounts('&period=this_month')).toEqual([3, 4, 5, 6, 7, 8]);
      expect(await amounts('&period=last_month')).toEqual([1, 2]);
      expect(await amounts('&period=all_time')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(await amounts('')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(await amounts('&period=custom&from=2026-10-31T23:59:59Z&to=2026-11-11T23:59:59Z')).toEqual([2, 3]);

      // since_last_recharge: from the latest credit on, the credit included.
      clock.set(new Date('2026-11-17T12:00:00Z'));
      await credit(50);
      clock.set(start);
      const since = await allPages('&period=since_last_recharge');
      expect(since.map((e) => [e.kind, e.amountMinor])).toEqual([
        ['debit', 8],
        ['debit', 7],
        ['debit', 6],
        ['credit', 50],
      ]);
    });

    it('400 invalid_custom_range: custom without from or to, reversed, or empty', async () => {
      await credit(10);
      expectError(await get('/credits/ledger?period=custom'), 400, 'invalid_custom_range');
      expectError(await get('/credits/ledger?period=custom&from=2026-11-01T00:00:00Z'), 400, 'invalid_custom_range');
      expectError(await get('/credits/ledger?period=custom&to=2026-11-01T00:00:00Z'), 400, 'invalid_custom_range');
      expectError(await get('/credits/ledger?period=custom&from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z'), 400, 'invalid_custom_range');
      expectError(await get('/credits/ledger?period=custom&from=2026-11-01T00:00:00Z&to=2026-11-01T00:00:00Z'), 400, 'invalid_custom_range');
      // malformed values and from/to without custom are query errors
      expectError(await get('/credits/ledger?period=custom&from=yesterday&to=2026-11-01T00:00:00Z'), 400, 'invalid_query');
      expectError(await get('/credits/ledger?period=today&from=2026-11-01T00:00:00Z'), 400, 'invalid_query');
      expectError(await get('/credits/ledger?period=someday'), 400, 'invalid_query');
      expectError(await get('/credits/ledger?kind=refund'), 400, 'invalid_query');
      expectError(await get('/credits/ledger?limit=0'), 400, 'invalid_query');
      expectError(await get('/credits/ledger?limit=201'), 400, 'invalid_query');
      expect((await get('/credits/ledger?limit=200')).status).toBe(200);
    });

    it('409 no_recharge_found for since_last_recharge without any credit', async () => {
      expectError(await get('/credits/ledger?period=since_last_recharge'), 409, 'no_recharge_found');
      await debit('c1', 5); // debits are not recharges
      expectError(await get('/credits/ledger?period=since_last_recharge'), 409, 'no_recharge_found');
      // a PENDING recharge has not credited anything either
      await t.get(RecordPendingRecharge).execute({ workspaceId: ws.workspaceId, amountMinor: 100 });
      expectError(await get('/credits/ledger?period=since_last_recharge'), 409, 'no_recharge_found');
      await credit(5);
      expect((await get('/credits/ledger?period=since_last_recharge')).status).toBe(200);
    });

    it('cursor pages cover every entry once, also while new entries arrive between fetches', async () => {
      const original: string[] = [];
      for (let i = 0; i < 25; i++) {
        clock.advance(1000);
        original.push(i % 5 === 0 ? (await credit(100 + i)).entry.id : (await debit(`p-${i}`, i)).entryId);
      }
      // Two entries at the very same instant: the id breaks the tie.
      await debit('tie-a', 1);
      await debit('tie-b', 2);
      original.push(...((await t.dataSource.query(`SELECT id FROM ledger_entries WHERE reference IN ('tie-a','tie-b')`)) as Array<{ id: string }>).map((r) => r.id));

      const seen: string[] = [];
      const late: string[] = [];
      let cursor: string | null = null;
      let page = 0;
      do {
        const res = await get(`/credits/ledger?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(res.status).toBe(200);
        const items = res.body.items as Entry[];
        expect(items.length).toBeLessThanOrEqual(4);
        seen.push(...items.map((e) => e.id));
        cursor = res.body.nextCursor as string | null;
        // New entries arrive while the client pages: newer ones (they wait for the next listing),
        // and one stamped between entries of the first page (a slow transaction: it may show up
        // on a later page, but it never pushes an old entry out or back in).
        clock.advance(500);
        await debit(`new-${page}`, 1);
        await credit(1, ws.workspaceId, `new-credit-${page}`);
        const now = clock.now();
        clock.set(new Date(start.getTime() + 10_500));
        late.push((await debit(`late-${page}`, 1)).entryId);
        clock.set(now);
        page++;
      } while (cursor);

      expect(new Set(seen).size).toBe(seen.length); // nothing repeated
      expect(original.filter((id) => !seen.includes(id))).toEqual([]); // nothing skipped
      const extra = seen.filter((id) => !original.includes(id));
      expect(extra.length).toBeGreaterThan(0); // the late arrivals below the cursor did show up
      expect(extra.every((id) => late.includes(id))).toBe(true); // and nothing newer than the first page
    });

    it('a cursor keeps the filters and range of its first page', async () => {
      for (let i = 0; i < 6; i++) {
        clock.advance(1000);
        await debit(`f-${i}`, i + 1);
      }
      await credit(10);
      const first = await get('/credits/ledger?kind=debit&period=today&limit=4');
      expect((first.body.items as Entry[]).map((e) => e.amountMinor)).toEqual([6, 5, 4, 3]);
      const cursor = encodeURIComponent(first.body.nextCursor as string);
      // Without the filters, or with the same ones: the same next page.
      expect(((await get(`/credits/ledger?limit=4&cursor=${cursor}`)).body.items as Entry[]).map((e) => e.amountMinor)).toEqual([2, 1]);
      const same = await get(`/credits/ledger?kind=debit&period=today&limit=4&cursor=${cursor}`);
      expect((same.body.items as Entry[]).map((e) => e.amountMinor)).toEqual([2, 1]);
      expect(same.body.nextCursor).toBeNull();
      // Other filters with it: the cursor does not belong to that query.
      expectError(await get(`/credits/ledger?kind=credit&cursor=${cursor}`), 400, 'invalid_cursor');
      expectError(await get(`/credits/ledger?period=all_time&cursor=${cursor}`), 400, 'invalid_cursor');
    });

    it('400 invalid_cursor for a malformed, tampered or foreign cursor', async () => {
      for (let i = 0; i < 3; i++) {
        clock.advance(1000);
        await debit(`x-${i}`, 1);
      }
      const first = await get('/credits/ledger?limit=1');
      const cursor = first.body.nextCursor as string;
      expect(typeof cursor).toBe('string');
      const [payload, mac] = cursor.split('.');
      const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      const forged = Buffer.from(JSON.stringify({ ...decoded, t: '2099-01-01T00:00:00.000000Z' })).toString('base64url');

      for (const bad of ['garbage', `${forged}.${mac}`, `${payload}.${mac.slice(1)}`, payload, 'x'.repeat(3000)]) {
        expectError(await get(`/credits/ledger?cursor=${encodeURIComponent(bad)}`), 400, 'invalid_cursor');
      }
      const other = await t.seed();
      expectError(await get(`/credits/ledger?cursor=${encodeURIComponent(cursor)}`, other.key), 400, 'invalid_cursor');
      // the genuine one still works
      expect((await get(`/credits/ledger?limit=1&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
    });
  });

  describe('recharges', () => {
    it('an operator credit is a CREDITED recharge; orderId is its ledger entry id; list with offset/limit', async () => {
      const a = await credit(500, ws.workspaceId, 'inv-a');
      clock.advance(1000);
      const b = await credit(300);
      const list = await get('/credits/recharges');
      expect(list.status).toBe(200);
      expect(list.body.total).toBe(2);
      expect(list.body.items).toEqual([
        expect.objectContaining({ orderId: b.entry.id, status: 'CREDITED', amountMinor: 300, currency: 'USD' }),
        expect.objectContaining({ orderId: a.entry.id, status: 'CREDITED', amountMinor: 500, reference: 'inv-a' }),
      ]);
      const page2 = await get('/credits/recharges?offset=1&limit=1');
      expect(page2.body).toEqual({ items: [expect.objectContaining({ orderId: a.entry.id })], total: 2 });
      expectError(await get('/credits/recharges?limit=0'), 400, 'invalid_query');

      const one = await get(`/credits/recharges/${a.entry.id}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual({
        orderId: a.entry.id,
        status: 'CREDITED',
        amountMinor: 500,
        currency: 'USD',
        reference: 'inv-a',
        description: 'Operator credit',
        createdAt: start.toISOString(),
        creditedAt: start.toISOString(),
      });
      const ledgerIds = ((await get('/credits/ledger?kind=credit')).body.items as Entry[]).map((e) => e.id);
      expect(ledgerIds).toContain(a.entry.id);
    });

    it('400 invalid_order_id for an orderId that is not a UUID; 404 recharge_not_found for unknown or foreign', async () => {
      expectError(await get('/credits/recharges/not-an-id'), 400, 'invalid_order_id');
      expectError(await get('/credits/recharges/12345/receipt'), 400, 'invalid_order_id');
      expectError(await get(`/credits/recharges/${randomUUID()}`), 404, 'recharge_not_found');
      expectError(await get(`/credits/recharges/${randomUUID()}/receipt`), 404, 'recharge_not_found');
      const other = await t.seed();
      const theirs = await credit(100, other.workspaceId);
      expectError(await get(`/credits/recharges/${theirs.entry.id}`), 404, 'recharge_not_found');
      expectError(await get(`/credits/recharges/${theirs.entry.id}/receipt`), 404, 'recharge_not_found');
      // a debit's ledger id is not a recharge either
      const d = await debit('c1', 5);
      expectError(await get(`/credits/recharges/${d.entryId}`), 404, 'recharge_not_found');
    });

    it('receipt of a CREDITED recharge; 409 receipt_not_available while PENDING, then available once credited', async () => {
      const credited = await credit(500, ws.workspaceId, 'inv-r');
      const receipt = await get(`/credits/recharges/${credited.entry.id}/receipt`);
      expect(receipt.status).toBe(200);
      expect(receipt.body).toMatchObject({
        orderId: credited.entry.id,
        status: 'CREDITED',
        workspaceId: ws.workspaceId,
        amountMinor: 500,
        currency: 'USD',
        reference: 'inv-r',
        ledgerEntryId: credited.entry.id,
        balanceAfterMinor: 500,
        creditedAt: start.toISOString(),
      });
      expect(receipt.body.receiptNumber).toMatch(/^RCPT-20261118-[0-9A-F]{8}$/);

      const pending = await t.get(RecordPendingRecharge).execute({ workspaceId: ws.workspaceId, amountMinor: 200, reference: 'po-7' });
      expect(pending).toMatchObject({ status: 'PENDING', creditedAt: null });
      expect((await get(`/credits/recharges/${pending.orderId}`)).body).toMatchObject({ status: 'PENDING', amountMinor: 200 });
      expectError(await get(`/credits/recharges/${pending.orderId}/receipt`), 409, 'receipt_not_available');
      // pending money is not on the wallet
      expect((await get('/credits/balance')).body.balanceMinor).toBe(500);

      clock.advance(3600_000);
      const done = await t.get(CreditPendingRecharge).execute({ workspaceId: ws.workspaceId, orderId: pending.orderId });
      expect(done).toMatchObject({ balanceMinor: 700, recharge: { status: 'CREDITED' }, entry: { id: pending.orderId, amountMinor: 200 } });
      const later = await get(`/credits/recharges/${pending.orderId}/receipt`);
      expect(later.status).toBe(200);
      expect(later.body).toMatchObject({ orderId: pending.orderId, ledgerEntryId: pending.orderId, balanceAfterMinor: 700, reference: 'po-7' });
      // crediting it twice is refused and changes nothing
      await expect(t.get(CreditPendingRecharge).execute({ workspaceId: ws.workspaceId, orderId: pending.orderId })).rejects.toMatchObject({
        code: 'invalid_request',
      });
      expect((await get('/credits/balance')).body.balanceMinor).toBe(700);
    });

    it('POST /credits/recharges → 403 api_key_not_allowed for every key; nothing changes', async () => {
      for (const scopes of [undefined, ['billing.view'], ['billing.view', 'billing.edit']]) {
        const key = scopes ? (await t.addKey(ws.workspaceId, { scopes })).key : ws.key;
        expectError(await t.http.post('/credits/recharges').set(bearer(key)).send({ amountMinor: 1000 }), 403, 'api_key_not_allowed');
      }
      expect((await get('/credits/recharges')).body).toEqual({ items: [], total: 0 });
      expect((await get('/credits/balance')).body.balanceMinor).toBe(0);
    });
  });
});
