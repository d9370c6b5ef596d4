import {
  CreditStatus,
  CreditWallet,
  DebitKind,
  Tariffs,
  WalletBalance,
  WalletDebits,
} from '@outreach/billing';
import { AppConfig, Clock, FixedClock, loadConfig, TransactionHost, UnitOfWork, WORKER_CONFIG_DEFAULTS } from '@outreach/platform';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { capturing, rowsRead } from '../support/plans';
import { Seeded, TestApp } from '../support/test-app';

type LedgerRow = { id: string; kind: string; debit_kind: string | null; amount_minor: string; balance_after_minor: string; reference: string | null };

/** Issue 5, money: debits for the engine, tariffs, and who may spend (decisions.md 8.6, 20.1, 20.2, 20.3). */
describe('wallet debits, tariffs and credit status', () => {
  const start = new Date('2026-11-21T10:00:00Z');
  const clock = new FixedClock(start);
  let t: TestApp;
  let ws: Seeded;
  let debits: WalletDebits;
  let credits: CreditWallet;

  beforeAll(async () => {
    // Debits run in the worker (attempt settlement), with the worker's pool: 50 transactions that
    // queue on one wallet row wait longer for a connection than the API's 500 ms allow.
    const workerConfig = loadConfig(process.env, WORKER_CONFIG_DEFAULTS);
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock).overrideProvider(AppConfig).useValue(workerConfig) });
    debits = t.get(WalletDebits);
    credits = t.get(CreditWallet);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    clock.set(start);
    await t.reset();
    ws = await t.seed();
  });

  const balance = async (workspaceId = ws.workspaceId) => (await t.get(WalletBalance).get(workspaceId)).balanceMinor;
  const ledger = (workspaceId = ws.workspaceId): Promise<LedgerRow[]> =>
    t.dataSource.query(`SELECT * FROM ledger_entries WHERE workspace_id = $1 ORDER BY created_at, id`, [workspaceId]);
  const ledgerSum = (rows: LedgerRow[]) =>
    rows.reduce((sum, r) => sum + (r.kind === 'credit' ? 1 : -1) * Number(r.amount_minor), 0);
  const debit = (reference: string, amountMinor: number, kind: DebitKind = 'call') =>
    debits.debit({ workspaceId: ws.workspaceId, amountMinor, kind, reference, description: `test ${reference}` });

  it('writes a debit row with the balance after it; the same (kind, reference) never debits twice', async () => {
    await credits.execute({ workspaceId: ws.workspaceId, amountMinor: 100 });
    clock.advance(1000);
    const first = await debit('call-1', 30);
    expect(first).toEqual({ balanceMinor: 70, entryId: expect.any(String), replayed: false });

    const retried = await debit('call-1', 30);
    expect(retried).toEqual({ balanceMinor: 70, entryId: first.entryId, replayed: true });
    // Even with another amount: the reference decides, the first debit stands.
    expect((await debit('call-1', 99)).replayed).toBe(true);
    expect(await balance()).toBe(70);

    // The same reference under another kind is another debit.
    clock.advance(1000);
    const message = await debit('call-1', 1, 'message');
    expect(message).toMatchObject({ balanceMinor: 69, replayed: false });

    const rows = await ledger();
    expect(rows.map((r) => [r.kind, r.debit_kind, Number(r.amount_minor), Number(r.balance_after_minor)])).toEqual([
      ['credit', null, 100, 100],
      ['debit', 'call', 30, 70],
      ['debit', 'message', 1, 69],
    ]);
    expect(ledgerSum(rows)).toBe(await balance());
  });

  it('lets the balance go negative (the call already happened) and creates the wallet on first use', async () => {
    const res = await debit('call-neg', 25, 'test_call');
    expect(res).toMatchObject({ balanceMinor: -25, replayed: false });
    expect(await t.get(WalletBalance).get(ws.workspaceId)).toEqual({ balanceMinor: -25, currency: 'USD' });
  });

  it('a debit of 0 (an answered call of 0 ms) keeps its audit row and changes nothing else', async () => {
    await credits.execute({ workspaceId: ws.workspaceId, amountMinor: 5 });
    const res = await debit('call-zero', 0);
    expect(res).toMatchObject({ balanceMinor: 5, replayed: false });
    expect((await ledger()).filter((r) => r.kind === 'debit').map((r) => Number(r.amount_minor))).toEqual([0]);
  });

  it('refuses malformed debits with invalid_request and writes nothing', async () => {
    for (const bad of [
      { amountMinor: -1, kind: 'call', reference: 'r' },
      { amountMinor: 1.5, kind: 'call', reference: 'r' },
      { amountMinor: 1, kind: 'sms', reference: 'r' },
      { amountMinor: 1, kind: 'call', reference: '' },
      { amountMinor: 1, kind: 'call', reference: 'x'.repeat(201) },
    ]) {
      await expect(
        debits.debit({ workspaceId: ws.workspaceId, description: 'bad', ...(bad as { amountMinor: number; kind: DebitKind; reference: string }) }),
      ).rejects.toMatchObject({ code: 'invalid_request' });
    }
    expect(await ledger()).toEqual([]);
  });

  it('runs inside the caller’s transaction: a rollback takes the debit with it', async () => {
    await credits.execute({ workspaceId: ws.workspaceId, amountMinor: 100 });
    await expect(
      t.get(UnitOfWork).run(async () => {
        await debit('call-rollback', 40);
        expect(await balance()).toBe(60); // visible inside the transaction
        throw new Error('the outcome could not be recorded');
      }),
    ).rejects.toThrow('the outcome could not be recorded');
    expect(await balance()).toBe(100);
    expect((await ledger()).filter((r) => r.kind === 'debit')).toEqual([]);
    // and the job's retry debits once
    expect((await debit('call-rollback', 40)).replayed).toBe(false);
    expect(await balance()).toBe(60);
  });

  it('50 parallel debits in separate transactions keep an exact balance and a gap-free chain of balances', async () => {
    await credits.execute({ workspaceId: ws.workspaceId, amountMinor: 1000 });
    const amounts = Array.from({ length: 50 }, (_, i) => i + 1); // 1..50, total 1275
    const results = await Promise.all(amounts.map((a) => debit(`par-${a}`, a)));
    expect(results.every((r) => !r.replayed)).toBe(true);
    expect(await balance()).toBe(1000 - 1275);

    // Each debit saw the balance the previous one left: sorted by balance, every step is its amount.
    const rows = (await ledger()).filter((r) => r.kind === 'debit');
    expect(rows).toHaveLength(50);
    const chain = rows
      .map((r) => ({ amount: Number(r.amount_minor), after: Number(r.balance_after_minor) }))
      .sort((a, b) => b.after - a.after);
    let before = 1000;
    for (const step of chain) {
      expect(step.after).toBe(before - step.amount);
      before = step.after;
    }
    expect(ledgerSum(await ledger())).toBe(await balance());
  });

  it('parallel debits and credits on one wallet: the balance is exact, the ledger sums to it', async () => {
    const work: Array<Promise<unknown>> = [];
    for (let i = 0; i < 30; i++) work.push(debit(`mix-${i}`, 7));
    for (let i = 0; i < 10; i++) work.push(credits.execute({ workspaceId: ws.workspaceId, amountMinor: 50, reference: `top-${i}` }));
    // duplicates of a few debits and credits, racing their originals
    for (let i = 0; i < 5; i++) work.push(debit(`mix-${i}`, 7));
    for (let i = 0; i < 3; i++) work.push(credits.execute({ workspaceId: ws.workspaceId, amountMinor: 50, reference: `top-${i}` }));
    await Promise.all(work);
    expect(await balance()).toBe(10 * 50 - 30 * 7);
    const rows = await ledger();
    expect(rows.filter((r) => r.kind === 'debit')).toHaveLength(30);
    expect(rows.filter((r) => r.kind === 'credit')).toHaveLength(10);
    expect(ledgerSum(rows)).toBe(await balance());
  });

  it('debitMany: one row per new reference, a replayed one adds nothing, the wallet changes once, the chain reads right in ledger order (decisions.md 47.5)', async () => {
    await credits.execute({ workspaceId: ws.workspaceId, amountMinor: 100 });
    clock.advance(1000);
    await debit('m-2', 5, 'message'); // written before: the batch's m-2 is a replay
    clock.advance(1000);
    const many = (references: string[], amount: (i: number) => number) =>
      debits.debitMany(references.map((reference, i) => ({ workspaceId: ws.workspaceId, amountMinor: amount(i), kind: 'message' as const, reference, description: `test ${reference}` })));
    const answers = await many(['m-1', 'm-2', 'm-3', 'm-4'], (i) => i + 1); // 1, (2), 3, 4
    // Each answer carries the balance the whole batch left.
    const left = 100 - 5 - 1 - 3 - 4;
    expect(answers).toEqual([false, true, false, false].map((replayed) => ({ replayed, balanceMinor: left })));
    expect(await balance()).toBe(left);

    // Rows of one batch share their created_at; in the ledger's order (created_at, id) each row's
    // balance is the one before it minus its amount.
    const rows = await ledger();
    expect(rows.map((r) => [r.kind === 'credit' ? 'credit' : r.reference, Number(r.amount_minor)])).toEqual([
      ['credit', 100],
      ['m-2', 5],
      ['m-1', 1],
      ['m-3', 3],
      ['m-4', 4],
    ]);
    let before = 0;
    for (const row of rows) {
      const after = before + (row.kind === 'credit' ? 1 : -1) * Number(row.amount_minor);
      expect(Number(row.balance_after_minor)).toBe(after);
      before = after;
    }
    expect(ledgerSum(rows)).toBe(await balance());

    // The whole batch again: every reference is a replay, nothing changes.
    expect(await many(['m-1', 'm-2', 'm-3', 'm-4'], () => 50)).toEqual(Array.from({ length: 4 }, () => ({ replayed: true, balanceMinor: 87 })));
    expect(await ledger()).toHaveLength(5);
    expect(await balance()).toBe(87);
    // Debits of two workspaces in one call are refused, nothing written.
    const other = await t.seed();
    await expect(
      debits.debitMany([
        { workspaceId: ws.workspaceId, amountMinor: 1, kind: 'message', reference: 'x-1', description: 'x' },
        { workspaceId: other.workspaceId, amountMinor: 1, kind: 'message', reference: 'x-2', description: 'x' },
      ]),
    ).rejects.toThrow('one workspace');
    expect(await ledger()).toHaveLength(5);
  });

  it('debitMany in one statement (decisions.md 47.11, 16.38): racing copies of one batch write each row once, the ledger and the balance agree; a reference named twice is refused', async () => {
    await credits.execute({ workspaceId: ws.workspaceId, amountMinor: 1000 });
    clock.advance(1000);
    const batch = ['r-1', 'r-2', 'r-3'].map((reference, i) => ({ workspaceId: ws.workspaceId, amountMinor: 10 * (i + 1), kind: 'message' as const, reference, description: reference }));
    // Each copy is its own transaction; a copy waits for the wallet row the first holds, then
    // finds every row written (decisions.md 16.38): it replays the batch and gives back what it took.
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => debits.debitMany(batch)));
    expect(outcomes.filter((o) => o.every((r) => !r.replayed))).toHaveLength(1);
    expect(outcomes.filter((o) => o.every((r) => r.replayed))).toHaveLength(5);
    for (const o of outcomes) expect(o.map((r) => r.balanceMinor)).toEqual([940, 940, 940]);
    const rows = await ledger();
    expect(rows.filter((r) => r.kind === 'debit')).toHaveLength(3);
    expect(await balance()).toBe(1000 - 60);
    expect(ledgerSum(rows)).toBe(await balance());
    expect(Number(rows[rows.length - 1].balance_after_minor)).toBe(940);

    await expect(debits.debitMany([batch[0], { ...batch[0], amountMinor: 1 }].map((d) => ({ ...d, reference: 'dup' })))).rejects.toThrow('named twice');
    expect(await ledger()).toHaveLength(4);
    expect(await balance()).toBe(940);
  });

  /** The statement a batch of three debits (one of them debited before) sends: captured, then rows it reads of ledger_entries when run again. */
  async function ledgerRowsReadByABatch(replayed: string, fresh: string[]): Promise<number> {
    const { result: answers, sent } = await capturing(
      t.get(TransactionHost),
      (sql) => sql.includes('INSERT INTO ledger_entries'),
      () => debits.debitMany([...fresh, replayed].map((reference) => ({ workspaceId: ws.workspaceId, amountMinor: 2, kind: 'message' as const, reference, description: reference }))),
    );
    expect(answers.map((a) => a.replayed)).toEqual([false, false, true]);
    expect(sent).toHaveLength(1);
    return rowsRead(t.dataSource, sent[0], 'ledger_entries');
  }

  it("with statistics that know other workspaces' debits and none of this one's, a batch of debits reads none of the workspace's other debits (decisions.md 16.36)", async () => {
    // As when a campaign starts: NOT EXISTS was planned as an anti join over every debit of the workspace.
    const other = await t.seed();
    await t.dataSource.query(
      `INSERT INTO ledger_entries (workspace_id, kind, debit_kind, amount_minor, balance_after_minor, currency, reference, description)
       SELECT $1, 'debit', 'message', 1, 0, 'EUR', 'o-' || i, 'seed' FROM generate_series(1, 2000) AS i`,
      [other.workspaceId],
    );
    await t.dataSource.query(`ANALYZE ledger_entries`);
    // Then the workspace writes 3,000 debits the statistics never see (autovacuum may be off or behind).
    await t.dataSource.query(
      `INSERT INTO ledger_entries (workspace_id, kind, debit_kind, amount_minor, balance_after_minor, currency, reference, description)
       SELECT $1, 'debit', 'message', 1, 0, 'EUR', 'old-' || i, 'seed' FROM generate_series(1, 3000) AS i`,
      [ws.workspaceId],
    );
    // The one reference debited before is all it reads of the workspace's 3,000 debits.
    expect(await ledgerRowsReadByABatch('old-7', ['n-1', 'n-2'])).toBeLessThanOrEqual(3);
  });

  it("with statistics that know only the workspace's first credit, a batch of debits reads none of its other debits at any size of the ledger (decisions.md 16.38)", async () => {
    // As on a new database. A look-up by the whole key was planned from index sizes the statistics
    // no longer matched: at some sizes it was answered from the (workspace, kind) or (workspace,
    // created_at) index, every debit of the workspace read for each reference of the batch.
    await credits.execute({ workspaceId: ws.workspaceId, amountMinor: 100 });
    await t.dataSource.query(`VACUUM ANALYZE ledger_entries`);
    for (let size = 2000; size <= 20000; size += 2000) {
      await t.dataSource.query(
        `INSERT INTO ledger_entries (workspace_id, kind, debit_kind, amount_minor, balance_after_minor, currency, reference, description)
         SELECT $1::uuid, 'debit', 'message', 1, 0, 'EUR', gen_random_uuid()::text, 'seed' FROM generate_series(1, 1999)
         UNION ALL SELECT $1::uuid, 'debit', 'message', 1, 0, 'EUR', $2, 'seed'`,
        [ws.workspaceId, `old-${size}`],
      );
      const read = await ledgerRowsReadByABatch(`old-${size}`, [`n-${size}-1`, `n-${size}-2`]);
      expect({ size, readMoreThan3: read > 3 }).toEqual({ size, readMoreThan3: false });
    }
  });

  it('20 racing retries of one debit write exactly one row', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => debit('call-dup', 12)));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entryId)).size).toBe(1);
    expect(await balance()).toBe(-12);
    expect(await ledger()).toHaveLength(1);
  });

  it('canSpend: balance > 0, or an active trial', async () => {
    const status = t.get(CreditStatus);
    const now = clock.now();
    expect(await status.canSpend(ws.workspaceId, now)).toBe(false); // no wallet yet

    await credits.execute({ workspaceId: ws.workspaceId, amountMinor: 10 });
    expect(await status.canSpend(ws.workspaceId, now)).toBe(true);
    await debit('call-a', 10);
    expect(await status.canSpend(ws.workspaceId, now)).toBe(false); // exactly 0
    await debit('call-b', 5);
    expect(await status.canSpend(ws.workspaceId, now)).toBe(false); // negative

    await t.get(WorkspaceAdministration).update(ws.workspaceId, { trialUntil: new Date(now.getTime() + 3600_000) });
    expect(await status.canSpend(ws.workspaceId, now)).toBe(true); // trial, balance -5
    expect(await status.summary(ws.workspaceId, now)).toEqual({
      balanceMinor: -5,
      currency: 'USD',
      trialUntil: new Date(now.getTime() + 3600_000).toISOString(),
      canSpend: true,
    });
    expect(await status.canSpend(ws.workspaceId, new Date(now.getTime() + 3600_000))).toBe(false); // trial over

    await credits.execute({ workspaceId: ws.workspaceId, amountMinor: 6 });
    expect(await status.canSpend(ws.workspaceId, new Date(now.getTime() + 7200_000))).toBe(true); // topped up: 1
  });

  it('tariffs: defaults from config, per started minute; a per-workspace override; null goes back to the default', async () => {
    const tariffs = t.get(Tariffs);
    expect(t.config.tariffVoiceMinuteMinor).toBe(10);
    expect(t.config.tariffMessageMinor).toBe(1);
    expect(await tariffs.voiceCostMinor(ws.workspaceId, 0)).toBe(0);
    expect(await tariffs.voiceCostMinor(ws.workspaceId, 1)).toBe(10);
    expect(await tariffs.voiceCostMinor(ws.workspaceId, 60_000)).toBe(10);
    expect(await tariffs.voiceCostMinor(ws.workspaceId, 60_001)).toBe(20);
    expect(await tariffs.messageCostMinor(ws.workspaceId)).toBe(1);

    const other = await t.seed();
    expect(await tariffs.setOverride(ws.workspaceId, { voiceMinuteMinor: 25, messageMinor: null })).toEqual({
      voiceMinuteMinor: 25,
      messageMinor: 1,
    });
    expect(await tariffs.voiceCostMinor(ws.workspaceId, 90_000)).toBe(50);
    expect(await tariffs.voiceCostMinor(other.workspaceId, 90_000)).toBe(20); // other workspaces keep the default
    await tariffs.setOverride(ws.workspaceId, { voiceMinuteMinor: null, messageMinor: 3 });
    expect(await tariffs.rates(ws.workspaceId)).toEqual({ voiceMinuteMinor: 10, messageMinor: 3 });

    await expect(tariffs.setOverride(ws.workspaceId, { voiceMinuteMinor: -1, messageMinor: null })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(tariffs.voiceCostMinor(ws.workspaceId, -5)).rejects.toMatchObject({ code: 'invalid_request' });
    expect(await tariffs.rates(ws.workspaceId)).toEqual({ voiceMinuteMinor: 10, messageMinor: 3 });
  });

  it('an operator credit is a CREDITED recharge whose orderId is its ledger entry id (CLI contract unchanged)', async () => {
    const res = await credits.execute({ workspaceId: ws.workspaceId, amountMinor: 500, reference: 'inv-1', description: 'Invoice 1' });
    expect(res).toMatchObject({ balanceMinor: 500, replayed: false, entry: { kind: 'credit', amountMinor: 500, reference: 'inv-1' } });
    const again = await credits.execute({ workspaceId: ws.workspaceId, amountMinor: 500, reference: 'inv-1' });
    expect(again).toMatchObject({ balanceMinor: 500, replayed: true, entry: { id: res.entry.id } });
    const recharges = await t.dataSource.query(`SELECT id, status, amount_minor FROM recharges WHERE workspace_id = $1`, [ws.workspaceId]);
    expect(recharges).toEqual([{ id: res.entry.id, status: 'CREDITED', amount_minor: '500' }]);
  });
});
