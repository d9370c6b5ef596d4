import { InMemoryAgentRepository } from '../testing';
import { CompileAgentPrompt } from './compile-agent-prompt.use-case';
import { AgentKnowledge } from './agent-knowledge';

/* CompileAgentPrompt: the full system prompt of the workspace's agent. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const A1 = 'a0000000-0000-4000-8000-000000000001';

describe('CompileAgentPrompt', () => {
  let agents: InMemoryAgentRepository;
  let compile: CompileAgentPrompt;

  beforeEach(async () => {
    agents = new InMemoryAgentRepository();
    compile = new CompileAgentPrompt(agents, new AgentKnowledge());
    await agents.seed({
      id: A1,
      workspaceId: W1,
      fields: { prompt: 'Sell the premium plan.', greeting: 'Hi, this is Maya', maxCallDurationSecs: 240, endCallEnabled: false },
    });
  });

  it("assembles the agent's instructions with its call-handling settings", async () => {
    const prompt = await compile.execute(W1, A1);
    expect(prompt).toContain('## Agent instructions\nSell the premium plan.');
    expect(prompt).toContain('First sentence of the call: "Hi, this is Maya"');
    expect(prompt).toContain('at most 240 seconds');
    expect(prompt).toContain('Never end the call yourself');
  });

  it("not_found for an unknown or another workspace's agent", async () => {
    await expect(compile.execute(W2, A1)).rejects.toMatchObject({ code: 'not_found' });
    await expect(compile.execute(W1, 'a0000000-0000-4000-8000-0000000000ff')).rejects.toMatchObject({ code: 'not_found' });
  });
});
