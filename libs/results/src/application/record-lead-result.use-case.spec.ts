import type { InboundCampaigns } from '@outreach/campaigns';
import type { WorkspaceAdministration } from '@outreach/workspaces';
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { ApiLeadIntake } from '@outreach/campaigns';
import { AppConfig } from '@outreach/core';
import { aCampaign, InMemoryApiLeadContactStore, InMemoryCampaignRepository, InMemoryContactRepository, inMemoryTimeline } from '../../../campaigns/src/testing';
import { FixedClock, jobsRollback, RecordingOutbox, RollbackUnitOfWork } from '../../../platform/src/testing';
import {
  aLeadResult,
  InMemoryDeliveryStore,
  InMemoryFinalCallLookup,
  InMemoryLeadKeyStore,
  InMemoryResultStore,
  InMemoryWebhookEndpointStore,
} from '../testing';
import { RecordLeadResult } from './record-lead-result.use-case';
import { LeadJourneysBinding } from './lead-journeys';

const NOW = new Date('2026-11-21T10:00:00Z');
const WS = 'ws-1';
const CID = 'c-1';
const RETENTION_DAYS = 30;

function setup() {
  const clock = new FixedClock(NOW);
  const contacts = new InMemoryContactRepository(() => clock.now());
  const campaigns = new InMemoryCampaignRepository(contacts);
  const campaignOutbox = new RecordingOutbox();
  const intake = new ApiLeadIntake(campaigns, new InMemoryApiLeadContactStore(campaigns, contacts), campaignOutbox, inMemoryTimeline());
  const keys = new InMemoryLeadKeyStore();
  const calls = new InMemoryFinalCallLookup();
  const results = new InMemoryResultStore();
  const endpoints = new InMemoryWebhookEndpointStore();
  const deliveries = new InMemoryDeliveryStore(endpoints, results);
  const outbox = new RecordingOutbox();
  const uow = new RollbackUnitOfWork([jobsRollback(outbox)]);
  const config = { resultRetentionDays: RETENTION_DAYS } as AppConfig;
  const timeline = inMemoryTimeline({ uow, clock });
  const record = new RecordLeadResult(keys, intake, calls, results, deliveries, outbox, uow, clock, config, timeline, { findCaller: async () => null } as unknown as InboundCampaigns, {} as WorkspaceAdministration, new LeadJourneysBinding());

  campaigns.seed(aCampaign({ workspaceId: WS, id: CID, status: 'RUNNING', draft: { source: 'API' } }));
  const addEndpoint = (enabled: boolean, workspaceId = WS) => {
    const id = randomUUID();
    void endpoints.insert(
      { id, workspaceId, url: `https://hooks.example.com/${id}`, description: null, enabled, disabledReason: null, previousSecretExpiresAt: null, secretRotatedAt: null, createdAt: NOW, updatedAt: NOW },
      'whsec_c2VjcmV0',
    );
    return id;
  };
  /** An API lead: a contact in `status` and the push key that created it. */
  const lead = (status: 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'DO_NOT_CALL', extra: { lastOutcome?: string | null; attempts?: number } = {}) => {
    const contact = contacts.seed(WS, CID, { phone: '+14155550100', name: 'Ann', status, attempts: extra.attempts ?? 1, lastOutcome: extra.lastOutcome ?? null });
    keys.seed({ campaignId: CID, idempotencyKey: 'k-1', workspaceId: WS, leadId: contact.id, lead: { phone: '+14155550100', name: 'Ann', fields: { plan: 'gold', vip: true } } });
    return contact;
  };
  return { clock, contacts, keys, calls, results, endpoints, deliveries, outbox, uow, timeline, record, addEndpoint, lead };
}

describe('RecordLeadResult (use case, ports faked)', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('writes the result of a final API lead, one delivery per enabled endpoint, and their deliver jobs', async () => {
    const s = setup();
    const on1 = s.addEndpoint(true);
    const on2 = s.addEndpoint(true);
    s.addEndpoint(false);
    s.addEndpoint(true, 'ws-other');
    const contact = s.lead('COMPLETED', { lastOutcome: 'interested', attempts: 2 });
    s.calls.calls.set('call-1', {
      workspaceId: WS,
      contactId: contact.id,
      call: { id: 'call-1', toNumber: '+14155550100', status: 'COMPLETED', outcome: 'answered', providerDisposition: 'human', attemptNumber: 2, answeredAt: NOW, endedAt: NOW, durationMs: 61_000 },
      analysis: { status: 'PENDING', evaluation: {}, extraction: {} },
    });

    const resultId = await s.record.execute(contact.id, 'call-1');

    expect(resultId).toEqual(expect.any(String));
    const stored = await s.results.find(WS, resultId!);
    expect(stored).toMatchObject({ leadId: contact.id, campaignId: CID, expiresAt: new Date(NOW.getTime() + RETENTION_DAYS * 24 * 3600_000) });
    expect(stored!.envelope).toMatchObject({
      id: resultId,
      type: 'api.lead.result',
      createdAt: NOW.toISOString(),
      data: {
        leadId: contact.id,
        campaignId: CID,
        idempotencyKey: 'k-1',
        lead: { phone: '+14155550100', name: 'Ann', fields: { plan: 'gold', vip: true } },
        status: 'completed',
        disposition: 'interested',
        attempts: 2,
        finalCall: { id: 'call-1', durationMs: 61_000 },
        analysis: { status: 'PENDING' },
      },
    });
    const created = [...s.deliveries.rows.values()].map((r) => r.view);
    expect(created.map((d) => d.endpointId).sort()).toEqual([on1, on2].sort());
    expect(created.every((d) => d.resultId === resultId && d.status === 'PENDING' && d.nextAttemptAt === NOW.toISOString())).toBe(true);
    expect(s.outbox.named('results', 'deliver').map((j) => j.payload.deliveryId).sort()).toEqual(created.map((d) => d.id).sort());
    // One transaction: the timeline's event joins it (a nested run).
    expect(s.uow.runs).toBe(2);
    expect(s.timeline.recorded.events.map((r) => r.event)).toEqual([
      { contactId: contact.id, type: 'result_emitted', at: NOW, detail: { resultId, status: 'completed' } },
    ]);
  });

  it('is idempotent: a second run answers the same result and queues nothing more', async () => {
    const s = setup();
    s.addEndpoint(true);
    const contact = s.lead('FAILED');
    const first = await s.record.execute(contact.id);
    const second = await s.record.execute(contact.id);
    expect(second).toBe(first);
    expect(s.results.rows).toHaveLength(1);
    expect(s.deliveries.rows.size).toBe(1);
    expect(s.outbox.jobs).toHaveLength(1);
  });

  it('without a final call the result has no finalCall and a SKIPPED analysis', async () => {
    const s = setup();
    const contact = s.lead('DO_NOT_CALL', { attempts: 0 });
    const id = await s.record.execute(contact.id, 'call-unknown');
    expect((await s.results.find(WS, id!))!.envelope!.data).toMatchObject({
      status: 'do_not_call',
      disposition: 'do_not_call',
      finalCall: null,
      analysis: { status: 'SKIPPED' },
    });
  });

  it('ignores a call of another contact', async () => {
    const s = setup();
    const contact = s.lead('COMPLETED');
    s.calls.calls.set('call-x', {
      workspaceId: WS,
      contactId: 'someone-else',
      call: { id: 'call-x', toNumber: '+14155550100', status: 'COMPLETED', outcome: 'answered', providerDisposition: null, attemptNumber: 1, answeredAt: null, endedAt: null, durationMs: 0 },
      analysis: null,
    });
    const id = await s.record.execute(contact.id, 'call-x');
    expect((await s.results.find(WS, id!))!.envelope!.data.finalCall).toBeNull();
  });

  it.each(['PENDING', 'IN_PROGRESS'] as const)('does nothing for a contact that is still %s', async (status) => {
    const s = setup();
    s.addEndpoint(true);
    const contact = s.lead(status);
    await expect(s.record.execute(contact.id)).resolves.toBeNull();
    expect(s.results.rows).toHaveLength(0);
    expect(s.outbox.jobs).toHaveLength(0);
  });

  it('does nothing for a contact that is not an API lead (no push key)', async () => {
    const s = setup();
    s.addEndpoint(true);
    const csvContact = s.contacts.seed(WS, CID, { phone: '+14155550199', status: 'COMPLETED' });
    await expect(s.record.execute(csvContact.id)).resolves.toBeNull();
    await expect(s.record.execute('unknown-contact')).resolves.toBeNull();
    expect(s.results.rows).toHaveLength(0);
    expect(s.deliveries.rows.size).toBe(0);
  });

  it('answers the existing result when another run inserted it first, without new deliveries', async () => {
    const s = setup();
    s.addEndpoint(true);
    const contact = s.lead('COMPLETED');
    // Another worker's run commits between this run's check and its insert.
    const realIdForLead = s.results.idForLead.bind(s.results);
    let first = true;
    s.results.idForLead = async (leadId: string) => {
      if (first) {
        first = false;
        const winner = await realIdForLead(leadId);
        await s.results.insert(WS, aLeadResult({ campaignId: CID, leadId, resultId: 'winner', createdAt: NOW }), NOW);
        return winner;
      }
      return realIdForLead(leadId);
    };
    await expect(s.record.execute(contact.id)).resolves.toBe('winner');
    expect(s.results.rows).toHaveLength(1);
    expect(s.outbox.jobs).toHaveLength(0);
  });
});
