import { AgentReferenceRegistry } from './agent-reference-registry';

/* AgentReferenceRegistry: modules register "do I use this agent?" checks; any yes means referenced. */

describe('AgentReferenceRegistry', () => {
  it('nothing registered: nothing references the agent', async () => {
    await expect(new AgentReferenceRegistry().isReferenced('w1', 'a1')).resolves.toBe(false);
  });

  it("referenced when any registered check says so, asked with the workspace and the agent", async () => {
    const registry = new AgentReferenceRegistry();
    const asked: string[] = [];
    registry.register(async (w, a) => {
      asked.push(`campaigns:${w}/${a}`);
      return false;
    });
    registry.register(async (w, a) => {
      asked.push(`numbers:${w}/${a}`);
      return a === 'a1';
    });

    await expect(registry.isReferenced('w1', 'a1')).resolves.toBe(true);
    await expect(registry.isReferenced('w1', 'a2')).resolves.toBe(false);
    expect(asked).toEqual(['campaigns:w1/a1', 'numbers:w1/a1', 'campaigns:w1/a2', 'numbers:w1/a2']);
  });

  it('stops asking at the first yes', async () => {
    const registry = new AgentReferenceRegistry();
    let laterAsked = false;
    registry.register(async () => true);
    registry.register(async () => {
      laterAsked = true;
      return false;
    });
    await expect(registry.isReferenced('w1', 'a1')).resolves.toBe(true);
    expect(laterAsked).toBe(false);
  });
});
