import { Llm, LlmError, LlmMessage, LlmOptions } from '../../application/llm/llm.port';

export interface OpenAiCompatibleLlmOptions {
  /** e.g. https://api.openai.com/v1 (ANALYSIS_BASE_URL: the path up to /chat/completions). */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Model of POST <base>/embeddings (ANALYSIS_EMBEDDING_MODEL). */
  embeddingModel?: string;
  /** Deadline of one completion, or of a whole stream. */
  timeoutMs: number;
  /** Injected in tests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

/**
 * The Llm port over any OpenAI-compatible chat-completions API: POST <base>/chat/completions with
 * `{model, messages, temperature?, max_tokens?, response_format?}`; `stream: true` reads the
 * server-sent events `data: {"choices":[{"delta":{"content":"…"}}]}` up to `data: [DONE]`. Every
 * failure is an LlmError: timeout, unreachable, a 4xx/5xx status (upstreamStatus), or an answer
 * that is not a completion (a stream that ends without [DONE] included).
 */
export class OpenAiCompatibleLlm extends Llm {
  private readonly endpoint: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: OpenAiCompatibleLlmOptions) {
    super();
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.fetchFn = options.fetch ?? fetch;
  }

  async complete(messages: LlmMessage[], options: LlmOptions): Promise<string> {
    const { response, signal } = await this.post(messages, options, false);
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw this.transportError(error, signal);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new LlmError('malformed_response', 'the language model answered with something other than JSON');
    }
    const content = firstChoice(body)?.message;
    const value = isObject(content) ? content.content : undefined;
    if (typeof value !== 'string') throw new LlmError('malformed_response', "the language model's answer has no choices[0].message.content");
    return value;
  }

  async *stream(messages: LlmMessage[], options: LlmOptions): AsyncIterable<string> {
    const { response, signal } = await this.post(messages, options, true);
    if (!response.body) throw new LlmError('malformed_response', 'the language model sent no stream');
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = response.body.getReader();
    try {
      for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          throw this.transportError(error, signal);
        }
        if (chunk.done) break;
        buffer += decoder.decode(chunk.value, { stream: true });
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).replace(/\r$/, '');
          buffer = buffer.slice(newline + 1);
          if (!line.startsWith('data:')) continue; // comments, event names, blank separators
          const data = line.slice(5).trim();
          if (data === '[DONE]') return;
          const token = deltaContent(data);
          if (token) yield token;
        }
      }
    } finally {
      reader.releaseLock();
      await response.body.cancel().catch(() => undefined);
    }
    throw new LlmError('malformed_response', 'the language model stream ended without [DONE]');
  }

  /** POST <base>/embeddings `{model, input}` → `data[].embedding`, put back in input order by `index`. */
  async embed(texts: string[], options: { signal?: AbortSignal } = {}): Promise<number[][]> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    let body: unknown;
    try {
      const response = await this.fetchFn(`${this.options.baseUrl.replace(/\/+$/, '')}/embeddings`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Bearer ${this.options.apiKey}` },
        body: JSON.stringify({ model: this.options.embeddingModel ?? 'text-embedding-3-small', input: texts }),
        signal,
      });
      if (response.status < 200 || response.status > 299) {
        await response.body?.cancel().catch(() => undefined);
        throw new LlmError('upstream_status', `the embedding model answered ${response.status}`, response.status);
      }
      body = JSON.parse(await response.text());
    } catch (error) {
      if (error instanceof LlmError) throw error;
      if (error instanceof SyntaxError) throw new LlmError('malformed_response', 'the embedding model answered with something other than JSON');
      throw this.transportError(error, signal);
    }
    const data = isObject(body) && Array.isArray(body.data) ? body.data : null;
    const vectors: number[][] = [];
    for (const item of data ?? []) {
      if (!isObject(item) || typeof item.index !== 'number' || !Array.isArray(item.embedding) || !item.embedding.every((x) => typeof x === 'number')) {
        throw new LlmError('malformed_response', 'the embedding model answered without data[].embedding');
      }
      vectors[item.index] = item.embedding as number[];
    }
    if (vectors.length !== texts.length || Array.from(vectors).some((v) => v === undefined)) throw new LlmError('malformed_response', `the embedding model answered ${vectors.length} vectors for ${texts.length} texts`);
    return vectors;
  }

  private async post(messages: LlmMessage[], options: LlmOptions, stream: boolean): Promise<{ response: Response; signal: AbortSignal }> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    const body = {
      model: this.options.model,
      messages,
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}),
      ...(options.json ? { response_format: { type: 'json_object' } } : {}),
      ...(stream ? { stream: true } : {}),
    };
    let response: Response;
    try {
      response = await this.fetchFn(this.endpoint, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: stream ? 'text/event-stream' : 'application/json',
          Authorization: `Bearer ${this.options.apiKey}`,
        },
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      throw this.transportError(error, signal);
    }
    if (response.status < 200 || response.status > 299) {
      await response.body?.cancel().catch(() => undefined);
      throw new LlmError('upstream_status', `the language model answered ${response.status}`, response.status);
    }
    return { response, signal };
  }

  private transportError(error: unknown, signal: AbortSignal): LlmError {
    if (signal.aborted) return new LlmError('timeout', `the language model did not answer within ${this.options.timeoutMs} ms`);
    const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
    const why = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
    return new LlmError('unreachable', `the language model could not be reached: ${why}`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function firstChoice(body: unknown): Record<string, unknown> | undefined {
  const choices = isObject(body) ? body.choices : undefined;
  return Array.isArray(choices) && isObject(choices[0]) ? choices[0] : undefined;
}

/** `choices[0].delta.content` of one streamed chunk ('' for role-only or empty chunks). */
function deltaContent(data: string): string {
  let chunk: unknown;
  try {
    chunk = JSON.parse(data);
  } catch {
    throw new LlmError('malformed_response', 'the language model streamed a chunk that is not JSON');
  }
  const delta = firstChoice(chunk)?.delta;
  const content = isObject(delta) ? delta.content : undefined;
  return typeof content === 'string' ? content : '';
}
