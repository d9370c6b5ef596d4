import { assembleAgentPrompt, compileSystemPrompt, GUARDRAIL_TEXT, PLATFORM_RULES } from './prompt-assembly';
import type { StudioConfig } from './agent.types';
import { AGENT_DEFAULTS } from './agent.types';

const studio: StudioConfig = {
  agentName: 'Maya',
  designation: 'Sales advisor',
  industry: 'real estate',
  companyName: 'Acme Homes',
  companyDescription: 'Builds family homes in Pune.',
  languages: ['English', 'Hindi'],
  primaryLanguage: 'English',
  gender: 'female',
  tone: 'empathetic',
  goal: 'Book a site visit for the new Riverside project.',
  welcomeMessage: 'Hi {{contact_name}}, this is Maya from Acme Homes.',
  guardrails: ['no_fabrication', 'data_privacy'],
  flowSteps: [
    { id: 's1', title: 'Confirm identity' },
    { id: 's2', title: 'Pitch Riverside', detail: 'Mention the river view' },
  ],
  faqs: [{ question: 'Where is it?', answer: 'Ten minutes from the airport.' }],
  closingBehavior: 'callback',
  languageSwitching: 'strict',
  keyTerms: ['Riverside', 'RERA'],
  overrides: { namesPolicy: 'no_names' },
};

describe('assembleAgentPrompt', () => {
  const prompt = assembleAgentPrompt(studio);

  it('writes every studio part the issue names: name, company, goal, tone, languages, steps, FAQs, guardrails, closing', () => {
    expect(prompt).toContain('You are Maya, Sales advisor in real estate, calling on behalf of Acme Homes.');
    expect(prompt).toContain('About Acme Homes: Builds family homes in Pune.');
    expect(prompt).toContain('## Goal\nBook a site visit for the new Riverside project.');
    expect(prompt).toContain('Tone: empathetic and patient.');
    expect(prompt).toContain('Speak English. Languages you may use: English, Hindi.');
    expect(prompt).toContain('Keep to the primary language unless the caller cannot continue in it.');
    expect(prompt).toContain('1. Confirm identity\n2. Pitch Riverside - Mention the river view');
    expect(prompt).toContain('Q: Where is it?\nA: Ten minutes from the airport.');
    expect(prompt).toContain(`- ${GUARDRAIL_TEXT.no_fabrication}`);
    expect(prompt).toContain(`- ${GUARDRAIL_TEXT.data_privacy}`);
    expect(prompt).not.toContain(GUARDRAIL_TEXT.no_pressure_selling);
    expect(prompt).toContain('## Closing\nAgree on a convenient time for a callback');
    expect(prompt).toContain('Open with: "Hi {{contact_name}}, this is Maya from Acme Homes."');
    expect(prompt).toContain('Riverside, RERA');
    expect(prompt).toContain('Do not address the person by name.');
  });

  it('keeps the order of the sections and leaves out empty ones', () => {
    const order = ['## Identity', '## Goal', '## Style and language', '## Opening', '## Conversation flow', '## Frequently asked questions', '## Guardrails', '## Closing'];
    const positions = order.map((h) => prompt.indexOf(h));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    const minimal = assembleAgentPrompt({ ...studio, guardrails: [], flowSteps: [], faqs: [], closingBehavior: undefined, welcomeMessage: undefined, keyTerms: [] });
    expect(minimal).not.toMatch(/## (Guardrails|Conversation flow|Frequently asked questions|Closing|Opening|Key terms)/);
    expect(minimal).toContain('## Goal');
  });

  it('is deterministic', () => {
    expect(assembleAgentPrompt(structuredClone(studio))).toBe(prompt);
  });
});

describe('compileSystemPrompt', () => {
  const base = { ...AGENT_DEFAULTS, prompt: 'Sell {{product}} politely.', promptAssembled: false };

  it('wraps the agent prompt in the platform template and the call-handling rules', () => {
    const compiled = compileSystemPrompt({
      ...base,
      greeting: 'Hello!',
      maxCallDurationSecs: 300,
      endCallTriggers: ['CALLER_GOODBYE'],
      endCallMessage: 'Goodbye',
      transferEnabled: true,
      transferTriggers: ['ASKS_MANAGER'],
      voicemailMessage: 'Call us back',
      preCallVariables: ['plan'],
    });
    for (const rule of PLATFORM_RULES) expect(compiled).toContain(rule);
    expect(compiled.indexOf('## Platform rules')).toBeLessThan(compiled.indexOf('## Agent instructions\nSell {{product}} politely.'));
    expect(compiled).toContain('First sentence of the call: "Hello!"');
    expect(compiled).toContain('at most 300 seconds');
    expect(compiled).toContain('You may end the call when: caller goodbye. Before hanging up, say: "Goodbye"');
    expect(compiled).toContain('transfer the call to a human when: asks manager.');
    expect(compiled).toContain('leave this message and hang up: "Call us back"');
    expect(compiled).toContain('filled in before the call: plan.');
  });

  it('adds the studio guardrails to a custom prompt, but not twice to an assembled one', () => {
    const withStudio = { ...base, studioConfig: studio };
    expect(compileSystemPrompt(withStudio)).toContain(GUARDRAIL_TEXT.data_privacy);
    const assembled = compileSystemPrompt({ ...withStudio, prompt: assembleAgentPrompt(studio), promptAssembled: true });
    expect(assembled.split(GUARDRAIL_TEXT.data_privacy).length - 1).toBe(1);
    expect(compileSystemPrompt(base)).not.toContain('## Guardrails');
  });

  it('says so when the agent may not end the call or transfer', () => {
    const compiled = compileSystemPrompt({ ...base, endCallEnabled: false, voicemailDetectionEnabled: false });
    expect(compiled).toContain('Never end the call yourself');
    expect(compiled).not.toContain('transfer');
    expect(compiled).not.toContain('voicemail');
  });
});
