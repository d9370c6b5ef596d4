import {
  AnalysisInput,
  AnalysisProviderError,
  AnalysisResult,
  CallAnalyser,
  sanitiseAnalysis,
} from '../../application/analysis/call-analyser.port';

export interface OpenAiAnalyserOptions {
  /** e.g. https://api.openai.com/v1 (no trailing slash needed). */
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  /** Injected in tests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

const SYSTEM_PROMPT = [
  'You analyse the transcript of a phone call placed by a voice agent.',
  'Answer with one JSON object and nothing else: {"extraction": {...}, "evaluation": {...}}.',
  '"extraction" holds one member per requested field, named exactly as the field, with a value of the field\'s type',
  '(string, number, integer, boolean, array of strings, date as YYYY-MM-DD, datetime as ISO-8601 with offset);',
  'leave a field out when the conversation does not settle it.',
  '"evaluation" holds one member per requested metric, named by its key, whose value is exactly one of that metric\'s',
  'allowedValues, chosen by following the metric\'s prompt; leave a metric out when it cannot be judged.',
].join(' ');

/**
 * Analysis through any OpenAI-compatible chat-completions API: POST <base>/chat/completions with
 * the model, a system + user message and `response_format: {type: "json_object"}`, bearer key,
 * a deadline of ANALYSIS_TIMEOUT_MS. Every way it can fail is an AnalysisProviderError:
 * timeout, unreachable, a 4xx/5xx status (upstreamStatus), or an answer that is not the JSON asked for.
 */
export class OpenAiCallAnalyser extends CallAnalyser {
  private readonly endpoint: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: OpenAiAnalyserOptions) {
    super();
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.fetchFn = options.fetch ?? fetch;
  }

  async analyse(input: AnalysisInput): Promise<AnalysisResult> {
    const body = {
      model: this.options.model,
      temperature: 0,
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        {
          role: 'user',
          content: JSON.stringify({
            fields: input.extractionKeys.map((k) => ({ name: k.name, type: k.type, description: k.description })),
            metrics: input.metrics.map((m) => ({ key: m.key, label: m.label, allowedValues: m.allowedValues, prompt: m.prompt })),
            transcript: input.transcript,
          }),
        },
      ],
    };
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    let status: number;
    let text: string;
    try {
      const response = await this.fetchFn(this.endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Bearer ${this.options.apiKey}` },
        body: JSON.stringify(body),
        signal,
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      if (signal.aborted) {
        throw new AnalysisProviderError('timeout', `the analysis provider did not answer within ${this.options.timeoutMs} ms`);
      }
      throw new AnalysisProviderError('unreachable', `the analysis provider could not be reached: ${describe(error)}`);
    }
    if (status < 200 || status > 299) {
      throw new AnalysisProviderError('upstream_status', `the analysis provider answered ${status}`, status);
    }
    return sanitiseAnalysis(input, parseCompletion(text));
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

type RawAnalysis = { extraction: Record<string, unknown>; evaluation: Record<string, unknown> };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The chat completion's first message content, read as {extraction, evaluation}. */
export function parseCompletion(text: string): RawAnalysis {
  const malformed = (why: string) => new AnalysisProviderError('malformed_response', `the analysis provider's answer ${why}`);
  let completion: unknown;
  try {
    completion = JSON.parse(text);
  } catch {
    throw malformed('is not JSON');
  }
  const choices = isObject(completion) ? completion.choices : undefined;
  const message = Array.isArray(choices) && isObject(choices[0]) ? choices[0].message : undefined;
  const content = isObject(message) ? message.content : undefined;
  if (typeof content !== 'string') throw malformed('has no choices[0].message.content');
  let parsed: unknown;
  try {
    // Some compatible servers wrap JSON mode output in a Markdown fence.
    parsed = JSON.parse(content.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, ''));
  } catch {
    throw malformed('content is not JSON');
  }
  if (!isObject(parsed)) throw malformed('content is not a JSON object');
  const extraction = parsed.extraction ?? {};
  const evaluation = parsed.evaluation ?? {};
  if (!isObject(extraction) || !isObject(evaluation)) throw malformed('content lacks the extraction and evaluation objects');
  return { extraction, evaluation };
}
