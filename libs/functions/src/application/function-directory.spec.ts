import { InMemoryFunctionRepository, seedFunction } from '../testing';
import { FunctionDirectory } from './function-directory';

/* FunctionDirectory over the in-memory repository: which ids name this workspace's functions. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const F1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const F2 = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const MISSING = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

describe('FunctionDirectory', () => {
  let repo: InMemoryFunctionRepository;
  let directory: FunctionDirectory;

  beforeEach(async () => {
    repo = new InMemoryFunctionRepository();
    directory = new FunctionDirectory(repo);
    await seedFunction(repo, { id: F1, workspaceId: W1, name: 'lookup' });
    await seedFunction(repo, { id: F2, workspaceId: W2, name: 'lookup' });
  });

  it("answers the subset naming this workspace's functions: unknown and foreign ids are absent", async () => {
    await expect(directory.existing(W1, [F1, F2, MISSING])).resolves.toEqual(new Set([F1]));
    await expect(directory.existing(W2, [F1, F2])).resolves.toEqual(new Set([F2]));
  });

  it('asks nothing for an empty list', async () => {
    const spy = jest.spyOn(repo, 'existingIds');
    await expect(directory.existing(W1, [])).resolves.toEqual(new Set());
    expect(spy).not.toHaveBeenCalled();
  });
});
