import { AppError } from '@outreach/core';
import { Recharge } from './recharge';

const base = {
  id: '22222222-2222-4222-8222-222222222222',
  workspaceId: '11111111-1111-4111-8111-111111111111',
  amountMinor: 500,
  currency: 'USD',
  reference: null,
  description: 'Recharge',
  createdAt: new Date('2026-03-01T10:00:00Z'),
};

describe('Recharge state machine', () => {
  it('PENDING → CREDITED on credit; the receipt exists only once CREDITED', () => {
    const r = Recharge.pending(base);
    expect(r.status).toBe('PENDING');
    expect(() => r.assertReceiptAvailable()).toThrow(expect.objectContaining({ code: 'receipt_not_available' }));
    const at = new Date('2026-03-02T10:00:00Z');
    r.credit(at);
    expect(r.toProps()).toMatchObject({ status: 'CREDITED', creditedAt: at });
    expect(() => r.assertReceiptAvailable()).not.toThrow();
  });

  it('an operator credit is CREDITED at once and cannot be credited again', () => {
    const r = Recharge.credited(base);
    expect(r.toProps()).toMatchObject({ status: 'CREDITED', creditedAt: base.createdAt });
    expect(() => r.credit(new Date())).toThrow(AppError);
  });
});
