import { AnalysisInput } from '../../application/analysis/call-analyser.port';
import { SandboxCallAnalyser } from './sandbox-call-analyser';

const input = (transcript: string): AnalysisInput => ({
  transcript,
  extractionKeys: [
    { name: 's', type: 'string', description: '' },
    { name: 'n', type: 'number', description: '' },
    { name: 'i', type: 'integer', description: '' },
    { name: 'b', type: 'boolean', description: '' },
    { name: 'a', type: 'array', description: '' },
    { name: 'd', type: 'date', description: '' },
    { name: 'dt', type: 'datetime', description: '' },
    { name: 'other', type: 'mystery', description: '' },
  ],
  metrics: [
    { key: 'qualified', label: 'Q', allowedValues: ['yes', 'no', 'unclear'], prompt: '' },
    { key: 'empty', label: 'E', allowedValues: [], prompt: '' },
  ],
});

describe('SandboxCallAnalyser', () => {
  const analyser = new SandboxCallAnalyser();

  it('gives every key a value of its type and every metric one of its allowed values', async () => {
    const { extraction, evaluation } = await analyser.analyse(input('Agent: hi\nCaller: hello'));
    expect(typeof extraction.s).toBe('string');
    expect(typeof extraction.n).toBe('number');
    expect(Number.isInteger(extraction.i)).toBe(true);
    expect(typeof extraction.b).toBe('boolean');
    expect(Array.isArray(extraction.a) && (extraction.a as unknown[]).every((v) => typeof v === 'string')).toBe(true);
    expect(extraction.d).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new Date(extraction.dt as string).toISOString()).toBe(extraction.dt);
    expect(typeof extraction.other).toBe('string');
    expect(['yes', 'no', 'unclear']).toContain(evaluation.qualified);
    expect(evaluation).not.toHaveProperty('empty');
  });

  it('is deterministic: same transcript, same answer; another transcript, (almost surely) another answer', async () => {
    const first = await analyser.analyse(input('transcript one'));
    expect(await analyser.analyse(input('transcript one'))).toEqual(first);
    const others = await Promise.all(['two', 'three', 'four'].map((t) => analyser.analyse(input(`transcript ${t}`))));
    expect(others.some((o) => JSON.stringify(o.extraction) !== JSON.stringify(first.extraction))).toBe(true);
  });
});
