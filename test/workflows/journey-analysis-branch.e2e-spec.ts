// Issue 13 item 1 (decisions.md 37.20): a branch on an evaluation metric after a call step reads
// the call's analysis. An answered call's run waits until the calls worker has analysed the call,
// so each lead takes the path its own evaluation value names — not `else`.
process.env.DISPATCH_TICK_MS = '100';
process.env.REAPER_INTERVAL_MS = '3600000';

import { Clock, FixedClock } from '@outreach/platform';
import { attachNumber, createCampaign, credit } from '../campaigns/campaign-helpers';
import { createActiveAgent } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { CountingVoiceProvider, sandboxFor, sandboxNumber, startCampaign, startWorker, waitFor } from '../engine/engine-harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely, field by field
type Loose = Record<string, any>;

const MONDAY_10_UTC = new Date('2026-11-23T10:00:00Z');

function moodJourney(agentId: string) {
  return {
    nodes: [
      { id: 'start', kind: 'start', config: {} },
      { id: 'call1', kind: 'call', label: 'Call', config: { agentId } },
      { id: 'mood', kind: 'branch', label: 'Mood?', config: { on: 'evaluation', key: 'mood', cases: [{ name: 'warm', values: ['warm'] }, { name: 'cold', values: ['cold'] }] } },
      { id: 'tagWarm', kind: 'tag', label: 'Warm', config: { tag: 'warm' } },
      { id: 'tagCold', kind: 'tag', label: 'Cold', config: { tag: 'cold' } },
      { id: 'endWarm', kind: 'end', label: 'warm', config: {} },
      { id: 'endCold', kind: 'end', label: 'cold', config: {} },
      { id: 'endElse', kind: 'end', label: 'unknown', config: {} },
    ],
    edges: [
      { from: 'start', port: 'next', to: 'call1' },
      ...['answered', 'no_answer', 'voicemail', 'failed', 'transferred'].map((port) => ({ from: 'call1', port, to: 'mood' })),
      { from: 'mood', port: 'warm', to: 'tagWarm' },
      { from: 'mood', port: 'cold', to: 'tagCold' },
      { from: 'mood', port: 'else', to: 'endElse' },
      { from: 'tagWarm', port: 'next', to: 'endWarm' },
      { from: 'tagCold', port: 'next', to: 'endCold' },
    ],
  };
}

describe('journey branch on a call evaluation metric (the run waits for the analysis)', () => {
  const clock = new FixedClock(MONDAY_10_UTC);
  const voice = new CountingVoiceProvider(sandboxFor(clock));
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock) });
    worker = await startWorker({ clock, voice });
    ws = await t.seed({ features: ['workflows'] });
    await credit(t, ws.workspaceId, 1_000_000);
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });

  it('answered leads end at the tag and end their evaluation value names; a voicemail (not answered: no wait) takes else', async () => {
    const k = bearer(ws.key);
    const agentId = (await createActiveAgent(t, ws.key, {})).id;
    const created = await t.http.post('/workflows').set(k).send({ name: 'Mood journey', definition: moodJourney(agentId) });
    expect(created.status).toBe(201);
    const activated = await t.http.post(`/workflows/${created.body.id}/activate`).set(k).send({ revision: created.body.revision });
    expect(activated.status).toBe(200);
    const campaign = await createCampaign(t, ws.key, {
      channel: 'CUSTOM',
      source: 'CSV',
      workflowId: created.body.id,
      timezone: 'UTC',
      dailyWindowStart: '00:00',
      dailyWindowEnd: '00:00',
      recipientHours: 'off',
      evaluationMetrics: [{ key: 'mood', label: 'Mood', allowedValues: ['warm', 'cold'], prompt: 'Was the lead warm or cold?' }],
    });
    const campaignId = campaign.id as string;
    await attachNumber(t, ws.key, ws.workspaceId, campaignId);
    // Digits 5–9 answer (a transcript, so an analysis); digit 2 is voicemail: not answered, the run does not wait (else).
    const contacts = [...Array.from({ length: 12 }, (_, i) => ({ phone: sandboxNumber(i, 5 + (i % 5)), name: `Lead ${i}` })), { phone: sandboxNumber(20, 2), name: 'Voicemail' }];
    expect((await t.http.post(`/campaigns/${campaignId}/contacts`).set(k).send(contacts)).status).toBe(201);
    await startCampaign(t, ws, campaignId, { reservedConcurrency: 5 });

    await waitFor(
      'every run to end',
      async () => (await t.dataSource.query(`SELECT count(*)::int AS n FROM workflow_runs WHERE campaign_id = $1 AND status = 'DONE'`, [campaignId]))[0].n,
      (n) => n === contacts.length,
      60_000,
    );

    const leads: Array<{ id: string; phone: string }> = await t.dataSource.query(`SELECT id, phone FROM campaign_contacts WHERE campaign_id = $1 ORDER BY seq`, [campaignId]);
    const seen = new Set<string>();
    for (const lead of leads) {
      const res = await t.http.get(`/campaigns/${campaignId}/leads/${lead.id}/journey`).set(k);
      expect(res.status).toBe(200);
      const callId = res.body.steps.find((s: Loose) => s.nodeId === 'call1').call.id as string;
      const [call]: Array<{ analysis_status: string; evaluation: Record<string, string> | null }> = await t.dataSource.query(`SELECT analysis_status, evaluation FROM calls WHERE id = $1`, [callId]);
      const mood = call.evaluation?.mood ?? null;
      const path = res.body.steps.map((s: Loose) => s.nodeId);
      if (lead.phone.endsWith('2')) {
        expect({ endLabel: res.body.endLabel, path }).toEqual({ endLabel: 'unknown', path: ['start', 'call1', 'mood', 'endElse'] });
        continue;
      }
      expect(call.analysis_status).toBe('DONE');
      expect(['warm', 'cold']).toContain(mood);
      seen.add(mood!);
      const tagNode = mood === 'warm' ? 'tagWarm' : 'tagCold';
      const endNode = mood === 'warm' ? 'endWarm' : 'endCold';
      expect({ phone: lead.phone, endLabel: res.body.endLabel, tags: res.body.tags, path }).toEqual({ phone: lead.phone, endLabel: mood, tags: [mood], path: ['start', 'call1', 'mood', tagNode, endNode] });
      expect(res.body.steps.find((s: Loose) => s.nodeId === 'mood').port).toBe(mood);
    }
    // Both values occurred, so both paths were taken by the analysis (not one fixed port).
    expect([...seen].sort()).toEqual(['cold', 'warm']);
  });
});
