import { LlmError, LlmMessage } from '../../application/llm/llm.port';
import { SANDBOX_EMBEDDING_DIMENSIONS, SANDBOX_LLM_MARKERS, SandboxLlm, tokenize } from './sandbox-llm';

/* The sandbox language model: deterministic answers, markers that fail or exceed limits. */
describe('SandboxLlm', () => {
  const llm = new SandboxLlm();
  const ask = (content: string): LlmMessage[] => [
    { role: 'system', content: 'Contacts by status: PENDING 2, COMPLETED 5' },
    { role: 'user', content },
  ];
  const collect = async (tokens: AsyncIterable<string>) => {
    const out: string[] = [];
    for await (const t of tokens) out.push(t);
    return out;
  };

  it('answers the same input the same way, and streams exactly that answer', async () => {
    const a = await llm.complete(ask('How is it going?'), { purpose: 'campaign_chat' });
    expect(await llm.complete(ask('How is it going?'), { purpose: 'campaign_chat' })).toBe(a);
    expect(a).toContain('Contacts by status: PENDING 2, COMPLETED 5');
    const tokens = await collect(llm.stream(ask('How is it going?'), { purpose: 'campaign_chat' }));
    expect(tokens.length).toBeGreaterThan(3);
    expect(tokens.join('')).toBe(a);
    expect(tokenize(' a  b ')).toEqual([' ', 'a  ', 'b ']);
  });

  it('drafts a campaign as JSON named after the brief, and prompts from the metric', async () => {
    const draft = JSON.parse(await llm.complete([{ role: 'user', content: '# Solar follow-up\nCall last month’s leads.' }], { purpose: 'campaign_draft', json: true }));
    expect(draft).toMatchObject({ name: 'Solar follow-up', goal: expect.any(String), agentPromptOutline: expect.any(Array) });
    const prompt = await llm.complete([{ role: 'user', content: JSON.stringify({ label: 'Qualified', allowedValues: ['yes', 'no'] }) }], { purpose: 'metric_prompt' });
    expect(prompt).toContain('Qualified');
    expect(prompt).toContain('yes, no');
  });

  it('markers: fail (before any token), fail mid-stream (after some), too long, not JSON', async () => {
    await expect(llm.complete(ask(`x ${SANDBOX_LLM_MARKERS.fail}`), { purpose: 'campaign_chat' })).rejects.toMatchObject({ reason: 'upstream_status', upstreamStatus: 500 });
    await expect(collect(llm.stream(ask(SANDBOX_LLM_MARKERS.fail), { purpose: 'campaign_chat' }))).rejects.toBeInstanceOf(LlmError);
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const t of llm.stream(ask(SANDBOX_LLM_MARKERS.failMidStream), { purpose: 'campaign_chat' })) seen.push(t);
      })(),
    ).rejects.toBeInstanceOf(LlmError);
    expect(seen).toHaveLength(3);
    expect((await llm.complete(ask(SANDBOX_LLM_MARKERS.tooLong), { purpose: 'metric_prompt' })).length).toBe(6000);
    const prose = await llm.complete(ask(SANDBOX_LLM_MARKERS.notJson), { purpose: 'campaign_draft', json: true });
    expect(() => JSON.parse(prose)).toThrow();
  });

  it('embed: deterministic unit-length bag-of-words vectors (shared words → closer), a marker fails them', async () => {
    const [a, b, c] = await llm.embed(['Refunds take 14 days', 'refunds TAKE 14 days', 'Opening hours are nine to five']);
    expect(a).toHaveLength(SANDBOX_EMBEDDING_DIMENSIONS);
    expect(a).toEqual(b);
    const dot = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * y[i], 0);
    expect(dot(a, a)).toBeCloseTo(1, 10);
    expect(dot(a, c)).toBeLessThan(0.5);
    await expect(llm.embed([`x ${SANDBOX_LLM_MARKERS.fail}`])).rejects.toBeInstanceOf(LlmError);
  });
});
