import { createHash } from 'node:crypto';
import { Llm, LlmError, LlmMessage, LlmOptions } from '../../application/llm/llm.port';

/**
 * Markers a test (or a curious client) puts anywhere in the input to steer the sandbox
 * (decisions.md 32.3). Without a marker the answer is chosen from fixed outputs by a hash of the
 * input, so the same input always gets the same answer.
 */
export const SANDBOX_LLM_MARKERS = {
  /** Fails before answering: LlmError upstream_status 500 (a stream fails before its first token). */
  fail: '[[llm:fail]]',
  /** A stream yields a few tokens, then fails; `complete` fails as with `fail`. */
  failMidStream: '[[llm:fail-mid-stream]]',
  /** Answers 6,000 characters (over every length limit of the assist routes, e.g. 5,000 for metric prompts). */
  tooLong: '[[llm:too-long]]',
  /** Answers prose where JSON was asked (a draft that cannot be read). */
  notJson: '[[llm:not-json]]',
} as const;

const CHAT_OPENERS = [
  'Here is what the campaign figures show.',
  'Looking at this campaign so far:',
  'Based on the campaign data I was given:',
];

const METRIC_TEMPLATES = [
  'Read the whole conversation and decide {label}. Answer with exactly one of: {values}. If the caller never addressed it, answer with the most cautious value.',
  'Judge {label} from what the caller said, not from what the agent assumed. Choose one of {values}; quote nothing.',
  'Evaluate {label} for this call. Pick exactly one value from {values}, based only on explicit statements in the transcript.',
];

const DRAFTS = [
  {
    goal: 'Qualify interested leads and book a follow-up call with a specialist',
    outline: ['Greet the lead and confirm their identity', 'Explain the offer in two sentences', 'Ask whether the offer is relevant now', 'Offer a follow-up slot and confirm it', 'Thank the lead and end the call'],
    keys: [
      { name: 'interest_level', type: 'string', description: 'How interested the lead is, in their words' },
      { name: 'callback_time', type: 'datetime', description: 'When the lead wants the follow-up call' },
    ],
    metrics: [{ key: 'qualified', label: 'Qualified lead', allowedValues: ['yes', 'no', 'unclear'], prompt: 'Is the lead a fit for the offer and willing to continue?' }],
  },
  {
    goal: 'Collect feedback from recent customers and flag unhappy ones for a callback',
    outline: ['Introduce the agent and the company', 'Ask for a satisfaction score from 1 to 5', 'Ask what could be better', 'Offer a callback to unhappy customers', 'Close politely'],
    keys: [
      { name: 'satisfaction_score', type: 'integer', description: 'Score from 1 to 5 given by the customer' },
      { name: 'improvement', type: 'string', description: 'What the customer would improve' },
    ],
    metrics: [{ key: 'sentiment', label: 'Customer sentiment', allowedValues: ['positive', 'neutral', 'negative'], prompt: 'Overall sentiment of the customer during the call' }],
  },
  {
    goal: 'Remind customers of their upcoming appointment and confirm or reschedule it',
    outline: ['Greet the customer by name', 'State the appointment date and time', 'Ask the customer to confirm', 'Offer another slot if needed', 'Confirm the outcome and end'],
    keys: [
      { name: 'confirmed', type: 'boolean', description: 'Whether the customer confirmed the appointment' },
      { name: 'new_date', type: 'date', description: 'The new date when the customer rescheduled' },
    ],
    metrics: [{ key: 'appointment_status', label: 'Appointment status', allowedValues: ['confirmed', 'rescheduled', 'cancelled'], prompt: 'What happened to the appointment?' }],
  },
];

/**
 * The deterministic language model (decisions.md 32.3): the answer depends only on the input and the
 * purpose, chosen from fixed outputs by SHA-256 of the messages; markers make it fail or exceed
 * limits. It never leaves the process.
 */
export class SandboxLlm extends Llm {
  async complete(messages: LlmMessage[], options: LlmOptions): Promise<string> {
    const all = messages.map((m) => m.content).join('\n');
    if (all.includes(SANDBOX_LLM_MARKERS.fail) || all.includes(SANDBOX_LLM_MARKERS.failMidStream)) {
      throw new LlmError('upstream_status', 'the sandbox language model was told to fail', 500);
    }
    return answer(messages, options);
  }

  async *stream(messages: LlmMessage[], options: LlmOptions): AsyncIterable<string> {
    const all = messages.map((m) => m.content).join('\n');
    if (all.includes(SANDBOX_LLM_MARKERS.fail)) throw new LlmError('upstream_status', 'the sandbox language model was told to fail', 500);
    const tokens = tokenize(answer(messages, options));
    const failAt = all.includes(SANDBOX_LLM_MARKERS.failMidStream) ? Math.min(3, tokens.length) : -1;
    for (const [i, token] of tokens.entries()) {
      if (i === failAt) throw new LlmError('malformed_response', 'the sandbox language model was told to break off its stream');
      yield token;
    }
    if (failAt === tokens.length) throw new LlmError('malformed_response', 'the sandbox language model was told to break off its stream');
  }

  /** Bag-of-words vectors (each lower-cased word hashed into one of 64 dimensions), of unit length; a marker fails them. */
  async embed(texts: string[]): Promise<number[][]> {
    if (texts.some((t) => t.includes(SANDBOX_LLM_MARKERS.fail))) throw new LlmError('upstream_status', 'the sandbox language model was told to fail', 500);
    return texts.map((text) => {
      const v = new Array<number>(SANDBOX_EMBEDDING_DIMENSIONS).fill(0);
      for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) v[createHash('sha256').update(word).digest().readUInt32BE(0) % SANDBOX_EMBEDDING_DIMENSIONS] += 1;
      const norm = Math.hypot(...v) || 1;
      return v.map((x) => x / norm);
    });
  }
}

export const SANDBOX_EMBEDDING_DIMENSIONS = 64;

/** Words with their trailing whitespace: joined, they give the answer back exactly. */
export function tokenize(text: string): string[] {
  return text.match(/\s+|\S+\s*/g) ?? [];
}

function answer(messages: LlmMessage[], options: LlmOptions): string {
  const all = messages.map((m) => m.content).join('\n');
  if (all.includes(SANDBOX_LLM_MARKERS.tooLong)) return 'This answer is far too long. '.repeat(215).slice(0, 6000);
  if (all.includes(SANDBOX_LLM_MARKERS.notJson)) return 'I am sorry, I cannot turn this into a campaign.';
  const pick = <T>(list: readonly T[]): T => list[createHash('sha256').update(`${options.purpose}\n${all}`).digest().readUInt32BE(0) % list.length];
  const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
  switch (options.purpose) {
    case 'campaign_draft': {
      const draft = pick(DRAFTS);
      const firstLine = lastUser.split('\n').map((line) => line.replace(/^[#>*\-\s]+/, '').trim()).find((line) => line.length > 0) ?? 'Campaign';
      return JSON.stringify({
        name: firstLine.slice(0, 80),
        goal: draft.goal,
        description: `Drafted from the brief "${firstLine.slice(0, 60)}"`,
        agentPromptOutline: draft.outline,
        extractionKeys: draft.keys,
        metrics: draft.metrics,
      });
    }
    case 'metric_prompt': {
      const metric = parseObject(lastUser);
      const label = typeof metric.label === 'string' ? metric.label : 'the metric';
      const values = Array.isArray(metric.allowedValues) ? metric.allowedValues.join(', ') : 'the allowed values';
      return pick(METRIC_TEMPLATES).replace('{label}', label).replace('{values}', values);
    }
    case 'campaign_chat': {
      const figures = system.split('\n').find((line) => line.startsWith('Contacts by status:'));
      return `${pick(CHAT_OPENERS)} ${figures ?? 'There are no figures yet.'} Ask me about outcomes or extracted values for more.`;
    }
    case 'translation': {
      const language = /Target language: (.+)/.exec(system)?.[1]?.trim() ?? 'the target language';
      return `[${language}] ${lastUser}`;
    }
    case 'knowledge_answer': {
      // A chatbot's answer (the knowledge module, decisions.md 39.7): it quotes the best passage it was given.
      const best = /^\[1\] \(([^)]*)\) (.*)$/m.exec(system);
      return best ? `According to ${best[1]}: ${best[2].slice(0, 300)}` : 'I do not know: the knowledge base has nothing on that.';
    }
  }
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
