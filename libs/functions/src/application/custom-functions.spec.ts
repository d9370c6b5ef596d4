import { FixedClock, RollbackUnitOfWork } from '../../../platform/src/testing';
import { InMemoryFunctionRepository } from '../testing';
import { DEFAULT_TIMEOUT_MS } from '../domain/custom-function';
import { CustomFunctions } from './custom-functions';

/* CustomFunctions (CRUD of /functions) over the in-memory repository. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const T0 = new Date('2026-03-01T09:00:00Z');

const fields = (over: Record<string, unknown> = {}) => ({
  name: 'lookup_order',
  description: 'Looks an order up',
  parameters: { type: 'object', properties: { orderId: { type: 'string' } } },
  method: 'POST' as const,
  url: 'https://example.com/orders',
  headers: { Authorization: 'Bearer s3cret' },
  ...over,
});

describe('CustomFunctions', () => {
  let clock: FixedClock;
  let repo: InMemoryFunctionRepository;
  let uow: RollbackUnitOfWork;
  let functions: CustomFunctions;

  beforeEach(() => {
    clock = new FixedClock(T0);
    repo = new InMemoryFunctionRepository();
    uow = new RollbackUnitOfWork();
    functions = new CustomFunctions(repo, uow, clock);
  });

  describe('create', () => {
    it('stores the function and shows header names, never their values', async () => {
      const view = await functions.create(W1, fields());
      expect(view).toMatchObject({ name: 'lookup_order', method: 'POST', headerNames: ['Authorization'], timeoutMs: DEFAULT_TIMEOUT_MS, createdAt: T0.toISOString() });
      expect(JSON.stringify(view)).not.toContain('s3cret');
      expect(repo.rows.get(view.id)).toMatchObject({ workspaceId: W1, name: 'lookup_order' });
      expect(repo.sealedHeaders.get(view.id)).toEqual({ Authorization: 'Bearer s3cret' });
    });

    it('name_taken for a name the workspace uses (any case); another workspace may use it', async () => {
      await functions.create(W1, fields());
      await expect(functions.create(W1, fields({ name: 'LOOKUP_ORDER' }))).rejects.toMatchObject({ code: 'name_taken' });
      await expect(functions.create(W2, fields())).resolves.toMatchObject({ name: 'lookup_order' });
      expect(repo.rows.size).toBe(2);
    });
  });

  describe('list and get', () => {
    it("lists the workspace's functions in creation order", async () => {
      const a = await functions.create(W1, fields({ name: 'a' }));
      clock.advance(1000);
      const b = await functions.create(W1, fields({ name: 'b' }));
      await functions.create(W2, fields({ name: 'c' }));
      expect((await functions.list(W1)).map((f) => f.id)).toEqual([a.id, b.id]);
    });

    it("gets one; function_not_found for an unknown or another workspace's id", async () => {
      const a = await functions.create(W1, fields());
      await expect(functions.get(W1, a.id)).resolves.toMatchObject({ id: a.id, headerNames: ['Authorization'] });
      await expect(functions.get(W2, a.id)).rejects.toMatchObject({ code: 'function_not_found' });
      await expect(functions.get(W1, UNKNOWN)).rejects.toMatchObject({ code: 'function_not_found' });
    });
  });

  describe('update', () => {
    it('changes the given fields in a unit of work; headers untouched unless sent', async () => {
      const a = await functions.create(W1, fields());
      clock.advance(5000);
      const view = await functions.update(W1, a.id, { url: 'https://example.com/v2', timeoutMs: 2000 });
      expect(view).toMatchObject({ url: 'https://example.com/v2', timeoutMs: 2000, name: 'lookup_order', headerNames: ['Authorization'], updatedAt: '2026-03-01T09:00:05.000Z' });
      expect(uow.runs).toBe(1);
      expect(repo.rows.get(a.id)).toMatchObject({ url: 'https://example.com/v2', timeoutMs: 2000 });
      expect(repo.sealedHeaders.get(a.id)).toEqual({ Authorization: 'Bearer s3cret' });
    });

    it('replaces the whole header set when headers are sent', async () => {
      const a = await functions.create(W1, fields());
      const view = await functions.update(W1, a.id, { headers: { 'X-Key': 'k2' } });
      expect(view.headerNames).toEqual(['X-Key']);
      expect(repo.sealedHeaders.get(a.id)).toEqual({ 'X-Key': 'k2' });
    });

    it('no_fields_to_update for an empty change (also when every field is undefined)', async () => {
      const a = await functions.create(W1, fields());
      await expect(functions.update(W1, a.id, {})).rejects.toMatchObject({ code: 'no_fields_to_update' });
      await expect(functions.update(W1, a.id, { name: undefined })).rejects.toMatchObject({ code: 'no_fields_to_update' });
      expect(uow.runs).toBe(0);
    });

    it("function_not_found for an unknown or another workspace's id", async () => {
      const a = await functions.create(W1, fields());
      await expect(functions.update(W2, a.id, { name: 'x' })).rejects.toMatchObject({ code: 'function_not_found' });
      await expect(functions.update(W1, UNKNOWN, { name: 'x' })).rejects.toMatchObject({ code: 'function_not_found' });
      expect(repo.rows.get(a.id)!.name).toBe('lookup_order');
    });

    it("name_taken when renamed to another function's name", async () => {
      await functions.create(W1, fields({ name: 'first' }));
      const b = await functions.create(W1, fields({ name: 'second' }));
      await expect(functions.update(W1, b.id, { name: 'First' })).rejects.toMatchObject({ code: 'name_taken' });
      expect(repo.rows.get(b.id)!.name).toBe('second');
    });
  });

  describe('remove', () => {
    it("deletes the workspace's function; function_not_found the second time and for another workspace", async () => {
      const a = await functions.create(W1, fields());
      await expect(functions.remove(W2, a.id)).rejects.toMatchObject({ code: 'function_not_found' });
      await functions.remove(W1, a.id);
      expect(repo.rows.has(a.id)).toBe(false);
      await expect(functions.remove(W1, a.id)).rejects.toMatchObject({ code: 'function_not_found' });
    });
  });

  describe('executable', () => {
    it('gives the call runtime the header values, without names or timestamps', async () => {
      const a = await functions.create(W1, fields());
      const exe = await functions.executable(W1, a.id);
      expect(exe).toEqual({
        id: a.id,
        name: 'lookup_order',
        description: 'Looks an order up',
        parameters: fields().parameters,
        method: 'POST',
        url: 'https://example.com/orders',
        timeoutMs: DEFAULT_TIMEOUT_MS,
        headers: { Authorization: 'Bearer s3cret' },
      });
    });

    it('an empty header set for a function created without headers', async () => {
      const a = await functions.create(W1, fields({ headers: undefined }));
      await expect(functions.executable(W1, a.id)).resolves.toMatchObject({ headers: {} });
    });

    it("function_not_found for an unknown or another workspace's id", async () => {
      const a = await functions.create(W1, fields());
      await expect(functions.executable(W2, a.id)).rejects.toMatchObject({ code: 'function_not_found' });
      await expect(functions.executable(W1, UNKNOWN)).rejects.toMatchObject({ code: 'function_not_found' });
    });
  });
});
