import { FixedClock } from '../../../platform/src/testing';
import { aLeadResult, InMemoryApiLogStore, InMemoryResultStore } from '../testing';
import { API_LOG_RETENTION_DAYS, ResultsHousekeeping } from './results-housekeeping';

const NOW = new Date('2026-11-21T10:00:00Z');
const DAY_MS = 24 * 3600_000;

function setup() {
  const clock = new FixedClock(NOW);
  const results = new InMemoryResultStore();
  const logs = new InMemoryApiLogStore();
  return { clock, results, logs, housekeeping: new ResultsHousekeeping(results, logs, clock) };
}

function addResult(results: InMemoryResultStore, expiresAt: Date) {
  const envelope = aLeadResult({ campaignId: 'c-1', createdAt: NOW });
  results.seed({ id: envelope.id, workspaceId: 'ws-1', campaignId: 'c-1', leadId: envelope.data.leadId, envelope, createdAt: NOW, expiresAt });
}

function addLog(logs: InMemoryApiLogStore, at: Date) {
  return logs.insertMany([{ workspaceId: 'ws-1', campaignId: 'c-1', method: 'POST', route: '/v1/campaigns/:id/leads', path: '/v1/campaigns/c-1/leads', status: 201, errorCode: null, latencyMs: 5, keyId: null, requestId: null, at }]);
}

describe('ResultsHousekeeping (use case, ports faked)', () => {
  it('turns every expired result into a tombstone, batch after batch, and keeps the others', async () => {
    const s = setup();
    for (let i = 0; i < 2_500; i += 1) addResult(s.results, new Date(NOW.getTime() - 1));
    addResult(s.results, NOW); // expires exactly now: expired
    addResult(s.results, new Date(NOW.getTime() + 1));
    await expect(s.housekeeping.run()).resolves.toEqual({ resultsExpired: 2_501, logsDeleted: 0 });
    expect(s.results.rows.filter((r) => r.envelope !== null)).toHaveLength(1);
    expect(s.results.rows).toHaveLength(2_502); // tombstones keep id and expiry
  });

  it(`deletes API logs older than ${API_LOG_RETENTION_DAYS} days`, async () => {
    const s = setup();
    const cutoff = NOW.getTime() - API_LOG_RETENTION_DAYS * DAY_MS;
    for (let i = 0; i < 1_200; i += 1) await addLog(s.logs, new Date(cutoff - 1 - i));
    await addLog(s.logs, new Date(cutoff));
    await addLog(s.logs, NOW);
    await expect(s.housekeeping.run()).resolves.toEqual({ resultsExpired: 0, logsDeleted: 1_200 });
    expect(s.logs.entries.map((e) => e.entry.at.getTime())).toEqual([cutoff, NOW.getTime()]);
  });

  it('does nothing when nothing is due', async () => {
    const s = setup();
    addResult(s.results, new Date(NOW.getTime() + DAY_MS));
    await addLog(s.logs, NOW);
    await expect(s.housekeeping.run()).resolves.toEqual({ resultsExpired: 0, logsDeleted: 0 });
  });
});
