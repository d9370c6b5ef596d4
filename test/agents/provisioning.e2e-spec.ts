import { ProvisionAgent } from '@outreach/agents';
import { agentBody } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { WorkerModule } from '../../apps/worker/src/worker.module';

/** Polls `read` until it returns true; fails after `ms` (no fixed sleeps). */
async function eventually(read: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await read())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('Agent provisioning: PROVISIONING → ACTIVE through the outbox and the worker', () => {
  let api: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;

  beforeAll(async () => {
    api = await TestApp.create();
    await api.reset();
    ws = await api.seed();
    // The real worker process wiring: outbox relay + every module's processors (agents included).
    worker = await WorkerApp.create({ root: WorkerModule });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  const status = async (id: string) => (await api.http.get(`/agents/${id}`).set(bearer(ws.key))).body as Record<string, unknown>;

  it('the relay hands the provision job to the agents processor, which marks the agent ACTIVE once', async () => {
    const created = await api.http.post('/agents').set(bearer(ws.key)).send(agentBody());
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('PROVISIONING');
    const id = created.body.id as string;

    await eventually(async () => (await status(id)).status === 'ACTIVE');
    const active = await status(id);
    expect(typeof active.provisionedAt).toBe('string');
    const [row] = await api.dataSource.query(
      `SELECT a.provider_agent_id, o.dispatched_at FROM agents a JOIN outbox o ON o.payload->>'agentId' = a.id::text WHERE a.id = $1`,
      [id],
    );
    expect(row.provider_agent_id).toMatch(/^sbx_agent_[0-9a-f]{24}$/);
    expect(row.dispatched_at).not.toBeNull();

    // The job in BullMQ carries the id only, has the outbox job id, and completed.
    const queue = worker.producer.queue('agents');
    const findJob = async () => (await queue.getCompleted()).find((j) => j.data?.agentId === id);
    await eventually(async () => (await findJob()) !== undefined);
    const job = (await findJob())!;
    expect(job.name).toBe('provision');
    expect(job.data).toEqual({ agentId: id });
    expect(job.id).toMatch(/^outbox-[0-9a-f-]{36}$/);

    // Replaying the job (a duplicate delivery) changes nothing.
    await worker.get(ProvisionAgent).execute(id);
    expect(await status(id)).toEqual(active);
  });

  it('an agent archived before its job runs stays archived; unknown ids are ignored', async () => {
    const created = await api.http.post('/agents').set(bearer(ws.key)).send(agentBody());
    const id = created.body.id as string;
    // Archive it at once; whether the job ran first or not, the end state is archived.
    await api.http.delete(`/agents/${id}`).set(bearer(ws.key)).expect(200);
    await eventually(async () => (await api.dataSource.query(`SELECT 1 FROM outbox WHERE dispatched_at IS NULL`)).length === 0);
    await worker.get(ProvisionAgent).execute(id);
    expect((await status(id)).status).toBe('archived');
    await expect(worker.get(ProvisionAgent).execute('00000000-0000-4000-8000-000000000000')).resolves.toBeUndefined();
    await expect(worker.get(ProvisionAgent).execute('not-a-uuid')).resolves.toBeUndefined();
  });
});
