import { AppError } from '@outreach/core';
import { orderPage, summarise } from './commerce-order';
import { applyImport, backoffMs, canApplyImport, importProgress } from './crm-import';
import { assertMappings, CRM_RECORD_ID_FIELD, mapRecord } from './field-mapping';

const codeOf = (f: () => unknown): string | null => {
  try {
    f();
    return null;
  } catch (error) {
    return (error as AppError).code;
  }
};

const SOURCES = ['firstname', 'lastname', 'email', 'phone', 'mobilephone', 'company'];
const DEFAULTS = { phone: ['phone', 'mobilephone'], name: ['firstname', 'lastname'] };
const record = (properties: Record<string, string | null>) => ({ id: '101', properties });

describe('field mappings', () => {
  it('sources must be fields of the provider (invalid_mapping_source, checked first)', () => {
    expect(codeOf(() => assertMappings([{ source: 'shoe', target: 'bogus' }], SOURCES))).toBe('invalid_mapping_source');
  });

  it('targets: phone, name, altPhone or fields.<key>; phone and a variable only once; crm_record_id reserved', () => {
    expect(codeOf(() => assertMappings([{ source: 'email', target: 'email' }], SOURCES))).toBe('invalid_mapping_target');
    expect(codeOf(() => assertMappings([{ source: 'email', target: 'fields.' }], SOURCES))).toBe('invalid_mapping_target');
    expect(codeOf(() => assertMappings([{ source: 'email', target: `fields.${CRM_RECORD_ID_FIELD}` }], SOURCES))).toBe('invalid_mapping_target');
    expect(codeOf(() => assertMappings([{ source: 'phone', target: 'phone' }, { source: 'mobilephone', target: 'phone' }], SOURCES))).toBe('invalid_mapping_target');
    expect(codeOf(() => assertMappings([{ source: 'email', target: 'fields.x' }, { source: 'company', target: 'fields.x' }], SOURCES))).toBe('invalid_mapping_target');
    expect(
      codeOf(() =>
        assertMappings(
          [
            { source: 'firstname', target: 'name' },
            { source: 'lastname', target: 'name' },
            { source: 'phone', target: 'altPhone' },
            { source: 'mobilephone', target: 'altPhone' },
            { source: 'company', target: 'fields.company_name' },
          ],
          SOURCES,
        ),
      ),
    ).toBeNull();
  });

  it('without mappings: default phone (first non-empty), name joined, other fields as variables, the record id kept', () => {
    expect(mapRecord(record({ firstname: 'Ada', lastname: 'Lovelace', phone: ' ', mobilephone: '+16172000001', company: 'Acme', email: null }), [], DEFAULTS)).toEqual({
      phone: '+16172000001',
      name: 'Ada Lovelace',
      fields: { company: 'Acme', [CRM_RECORD_ID_FIELD]: '101' },
    });
  });

  it('with mappings: only mapped fields; phone and name fall back to the defaults; no phone → null', () => {
    const mapped = mapRecord(record({ firstname: 'Ada', phone: '+16172000001', mobilephone: '+16172000002', company: 'Acme' }), [{ source: 'company', target: 'fields.org' }, { source: 'mobilephone', target: 'altPhone' }], DEFAULTS);
    expect(mapped).toEqual({ phone: '+16172000001', name: 'Ada', altPhones: ['+16172000002'], fields: { org: 'Acme', [CRM_RECORD_ID_FIELD]: '101' } });
    expect(mapRecord(record({ firstname: 'Ada' }), [], DEFAULTS)).toBeNull();
    expect(mapRecord(record({ phone: '1.61720E+10' }), [], DEFAULTS)).toBeNull();
  });
});

describe('CRM import state machine', () => {
  it('pending → running → completed | failed; running may start again (a resumed job); finished imports do not move', () => {
    expect(applyImport('pending', 'start')).toBe('running');
    expect(applyImport('running', 'start')).toBe('running');
    expect(applyImport('running', 'complete')).toBe('completed');
    expect(applyImport('pending', 'fail')).toBe('failed');
    expect(canApplyImport('completed', 'start')).toBe(false);
    expect(canApplyImport('failed', 'start')).toBe(false);
    expect(canApplyImport('pending', 'complete')).toBe(false);
  });

  it('progress: 0–99 while running against the known total, 100 only when completed, 0 without a total', () => {
    const counts = { read: 2500, imported: 0, duplicates: 0, invalid: 0 };
    expect(importProgress({ status: 'running', counts, total: 5000 })).toBe(50);
    expect(importProgress({ status: 'running', counts: { ...counts, read: 5000 }, total: 5000 })).toBe(99);
    expect(importProgress({ status: 'completed', counts, total: null })).toBe(100);
    expect(importProgress({ status: 'running', counts, total: null })).toBe(0);
  });

  it('back-off doubles per consecutive failure, capped at 5 minutes', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(1000, n))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(1000, 30)).toBe(300_000);
  });
});

describe('commerce orders', () => {
  it('page ≥ 1 (default 1), limit 1–100 (default 20); anything else is invalid_params', () => {
    expect(orderPage({})).toEqual({ page: 1, limit: 20 });
    expect(orderPage({ page: '3', limit: '100' })).toEqual({ page: 3, limit: 100 });
    for (const q of [{ page: '0' }, { limit: '101' }, { limit: '' }, { page: '1.5' }, { page: '-2' }, { limit: 'x' }]) expect(codeOf(() => orderPage(q))).toBe('invalid_params');
  });

  const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 12, minutes));

  it('the summary counts orders, phones, cash on delivery, value and currencies; nothing notified without notifications', () => {
    const s = summarise([
      { id: 'o1', phone: '+16136120707', totalValue: 199.65, cod: false, currency: 'USD', orderedAt: at(0) },
      { id: 'o2', phone: null, totalValue: 50, cod: true, currency: 'USD', orderedAt: at(0) },
      { id: 'o3', phone: ' ', totalValue: 20.35, cod: false, currency: 'EUR', orderedAt: at(0) },
    ]);
    expect(s).toMatchObject({ orders: 3, ordersWithPhone: 1, codOrders: 1, totalValue: 270, currencies: ['EUR', 'USD'], ordersNotified: 0, spend: 0 });
  });

  it('the notification figures: attempted, notified, delivered, read, failed, replies, opt-outs, spend, median minutes, shipped', () => {
    const orders = [
      { id: 'a', phone: '+1', totalValue: 10, cod: false, currency: 'USD', orderedAt: at(0) },
      { id: 'b', phone: '+2', totalValue: 20, cod: false, currency: 'USD', orderedAt: at(0) },
      { id: 'c', phone: '+3', totalValue: 40, cod: true, currency: 'USD', orderedAt: at(0) },
      { id: 'd', phone: '+4', totalValue: 80, cod: false, currency: 'USD', orderedAt: at(0) },
    ];
    const n = (orderId: string, event: 'ORDER_CREATED' | 'ORDER_FULFILLED', status: 'SENT' | 'FAILED' | 'SKIPPED', messageId: string | null, reason: string | null = null) =>
      ({ orderId, event, status, messageId, reason, costMinor: status === 'SENT' ? 5 : 0 });
    const s = summarise(
      orders,
      [
        n('a', 'ORDER_CREATED', 'SENT', 'm1'), // read, replied STOP, 2 minutes after the order
        n('a', 'ORDER_FULFILLED', 'SENT', 'm2'), // delivered, 30 minutes
        n('b', 'ORDER_CREATED', 'SENT', 'm3'), // accepted, then undeliverable
        n('c', 'ORDER_CREATED', 'SKIPPED', null, 'contact_opted_out'),
        n('d', 'ORDER_FULFILLED', 'SENT', 'm4'), // sent, 10 minutes
        n('d', 'ORDER_CREATED', 'FAILED', null, 'template_not_approved'),
      ],
      [
        { id: 'm1', status: 'READ', sentAt: at(2), replies: 1, optedOutByReply: true },
        { id: 'm2', status: 'DELIVERED', sentAt: at(30), replies: 0, optedOutByReply: false },
        { id: 'm3', status: 'FAILED', sentAt: at(1), replies: 0, optedOutByReply: false },
        { id: 'm4', status: 'SENT', sentAt: at(10), replies: 0, optedOutByReply: false },
      ],
    );
    expect(s).toEqual({
      orders: 4,
      ordersWithPhone: 4,
      ordersNotified: 2, // a and d (b's only message failed, c was skipped)
      attempted: 5,
      delivered: 2,
      read: 1,
      failed: 2,
      clicks: 0,
      replies: 1,
      spend: 0.2, // four accepted messages at 5 minor units
      costPerNotifiedOrder: 0.1,
      medianMinutesToFirstUpdate: 6, // a: 2, d: 10
      optOuts: 2,
      shippedNotified: 2,
      notifiedValue: 90,
      totalValue: 150,
      codOrders: 1,
      currencies: ['USD'],
    });
  });
});
