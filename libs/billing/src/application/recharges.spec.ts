import { FixedClock, RollbackUnitOfWork } from '../../../platform/src/testing';
import { inMemoryWorkspaceAdministration, seedWorkspace } from '../../../workspaces/src/testing';
import { InMemoryRechargeRepository, InMemoryWalletRepository } from '../testing';
import { CreditWallet } from './credit-wallet.use-case';
import { CreditPendingRecharge, RechargeQueries, RecordPendingRecharge } from './recharges';

/* Recharges: pending orders, their crediting, and the reads (list, get, receipt). */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const T0 = new Date('2026-03-01T09:00:00Z');

describe('recharges', () => {
  let clock: FixedClock;
  let uow: RollbackUnitOfWork;
  let wallets: InMemoryWalletRepository;
  let recharges: InMemoryRechargeRepository;
  let record: RecordPendingRecharge;
  let creditPending: CreditPendingRecharge;
  let queries: RechargeQueries;
  let creditWallet: CreditWallet;

  beforeEach(async () => {
    clock = new FixedClock(T0);
    uow = new RollbackUnitOfWork();
    const workspaces = inMemoryWorkspaceAdministration({ clock });
    await seedWorkspace(workspaces.workspaces, { id: W1, name: 'Acme', currency: 'EUR' });
    await seedWorkspace(workspaces.workspaces, { id: W2, name: 'Beta' });
    wallets = new InMemoryWalletRepository();
    recharges = new InMemoryRechargeRepository();
    record = new RecordPendingRecharge(recharges, workspaces.administration, clock);
    creditPending = new CreditPendingRecharge(recharges, wallets, uow, clock);
    queries = new RechargeQueries(recharges, wallets, workspaces.administration);
    creditWallet = new CreditWallet(workspaces.administration, wallets, recharges, uow, clock);
  });

  describe('RecordPendingRecharge', () => {
    it("stores a PENDING order in the workspace's currency; nothing reaches the wallet", async () => {
      const view = await record.execute({ workspaceId: W1, amountMinor: 2500, reference: 'po-7' });
      expect(view).toMatchObject({ status: 'PENDING', amountMinor: 2500, currency: 'EUR', reference: 'po-7', description: 'Recharge', createdAt: T0.toISOString(), creditedAt: null });
      expect(recharges.rows.get(view.orderId)).toMatchObject({ workspaceId: W1, status: 'PENDING' });
      await expect(wallets.balance(W1)).resolves.toEqual({ balanceMinor: 0, currency: null });
    });

    it('invalid_request for a bad amount or reference; not_found for an unknown workspace', async () => {
      await expect(record.execute({ workspaceId: W1, amountMinor: 0 })).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(record.execute({ workspaceId: W1, amountMinor: 1, reference: '' })).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(record.execute({ workspaceId: UNKNOWN, amountMinor: 1 })).rejects.toMatchObject({ code: 'not_found' });
      expect(recharges.rows.size).toBe(0);
    });
  });

  describe('CreditPendingRecharge', () => {
    it('PENDING → CREDITED: the wallet is credited with a ledger entry under the order id', async () => {
      const order = await record.execute({ workspaceId: W1, amountMinor: 2500, reference: 'po-7', description: 'March top-up' });
      clock.advance(3_600_000);
      const result = await creditPending.execute({ workspaceId: W1, orderId: order.orderId });

      expect(result.recharge).toMatchObject({ orderId: order.orderId, status: 'CREDITED', creditedAt: '2026-03-01T10:00:00.000Z' });
      expect(result.entry).toMatchObject({ id: order.orderId, kind: 'credit', amountMinor: 2500, currency: 'EUR', reference: null, description: 'March top-up' });
      expect(result.balanceMinor).toBe(2500);
      expect(recharges.rows.get(order.orderId)).toMatchObject({ status: 'CREDITED', creditedAt: new Date('2026-03-01T10:00:00Z') });
      expect(uow.runs).toBe(1);
    });

    it('crediting twice is refused (invalid_request) and credits nothing more', async () => {
      const order = await record.execute({ workspaceId: W1, amountMinor: 2500 });
      await creditPending.execute({ workspaceId: W1, orderId: order.orderId });
      await expect(creditPending.execute({ workspaceId: W1, orderId: order.orderId })).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(wallets.balance(W1)).resolves.toMatchObject({ balanceMinor: 2500 });
      expect(wallets.entries).toHaveLength(1);
    });

    it("invalid_order_id for a malformed id; recharge_not_found for an unknown or another workspace's order", async () => {
      const order = await record.execute({ workspaceId: W1, amountMinor: 2500 });
      await expect(creditPending.execute({ workspaceId: W1, orderId: 'order-1' })).rejects.toMatchObject({ code: 'invalid_order_id' });
      await expect(creditPending.execute({ workspaceId: W1, orderId: UNKNOWN })).rejects.toMatchObject({ code: 'recharge_not_found' });
      await expect(creditPending.execute({ workspaceId: W2, orderId: order.orderId })).rejects.toMatchObject({ code: 'recharge_not_found' });
      expect(wallets.entries).toHaveLength(0);
    });
  });

  describe('RechargeQueries', () => {
    it("lists the workspace's recharges newest first, with the total", async () => {
      const first = await record.execute({ workspaceId: W1, amountMinor: 100 });
      clock.advance(1000);
      const second = await creditWallet.execute({ workspaceId: W1, amountMinor: 200 });
      clock.advance(1000);
      const third = await record.execute({ workspaceId: W1, amountMinor: 300 });
      await record.execute({ workspaceId: W2, amountMinor: 400 });

      const page = await queries.list(W1, 0, 2);
      expect(page.total).toBe(3);
      expect(page.items.map((r) => r.orderId)).toEqual([third.orderId, second.entry.id]);
      await expect(queries.list(W1, 2, 2)).resolves.toMatchObject({ items: [{ orderId: first.orderId, status: 'PENDING' }], total: 3 });
    });

    it("gets one order; invalid_order_id for a malformed id, recharge_not_found for an unknown or another workspace's", async () => {
      const order = await record.execute({ workspaceId: W1, amountMinor: 100 });
      await expect(queries.get(W1, order.orderId)).resolves.toEqual(order);
      await expect(queries.get(W1, 'nope')).rejects.toMatchObject({ code: 'invalid_order_id' });
      await expect(queries.get(W1, UNKNOWN)).rejects.toMatchObject({ code: 'recharge_not_found' });
      await expect(queries.get(W2, order.orderId)).rejects.toMatchObject({ code: 'recharge_not_found' });
    });

    it('a receipt for a credited recharge, with the balance after it', async () => {
      await creditWallet.execute({ workspaceId: W1, amountMinor: 1000 });
      const order = await record.execute({ workspaceId: W1, amountMinor: 2500, reference: 'po-7' });
      clock.set(new Date('2026-03-05T12:00:00Z'));
      await creditPending.execute({ workspaceId: W1, orderId: order.orderId });

      await expect(queries.receipt(W1, order.orderId)).resolves.toEqual({
        receiptNumber: `RCPT-20260305-${order.orderId.slice(0, 8).toUpperCase()}`,
        orderId: order.orderId,
        status: 'CREDITED',
        workspaceId: W1,
        workspaceName: 'Acme',
        amountMinor: 2500,
        currency: 'EUR',
        reference: 'po-7',
        description: 'Recharge',
        createdAt: T0.toISOString(),
        creditedAt: '2026-03-05T12:00:00.000Z',
        ledgerEntryId: order.orderId,
        balanceAfterMinor: 3500,
      });
    });

    it('receipt_not_available while the order is PENDING', async () => {
      const order = await record.execute({ workspaceId: W1, amountMinor: 2500 });
      await expect(queries.receipt(W1, order.orderId)).rejects.toMatchObject({ code: 'receipt_not_available' });
    });

    it('receipt: invalid_order_id and recharge_not_found like get', async () => {
      await expect(queries.receipt(W1, 'nope')).rejects.toMatchObject({ code: 'invalid_order_id' });
      await expect(queries.receipt(W1, UNKNOWN)).rejects.toMatchObject({ code: 'recharge_not_found' });
    });
  });
});
