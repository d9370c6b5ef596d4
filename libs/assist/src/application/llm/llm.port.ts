/** One message of a conversation with the language model (OpenAI's chat roles). */
export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * What the caller asks of one completion. `purpose` names the use (campaign_draft, metric_prompt,
 * campaign_chat, translation, knowledge_answer): real models ignore it, the sandbox picks its fixed outputs by it.
 */
export interface LlmOptions {
  purpose: LlmPurpose;
  /** Ask for one JSON object (OpenAI's `response_format: {type: "json_object"}`). */
  json?: boolean;
  /** Upper bound of the answer's length in tokens (`max_tokens`). */
  maxTokens?: number;
  temperature?: number;
  /** Aborts the request (a client that went away). */
  signal?: AbortSignal;
}

export type LlmPurpose = 'campaign_draft' | 'metric_prompt' | 'campaign_chat' | 'translation' | 'knowledge_answer';

/** Why the model gave no usable answer. */
export type LlmFailureReason =
  /** No answer within the deadline (ANALYSIS_TIMEOUT_MS). */
  | 'timeout'
  /** Connection refused, reset, DNS… */
  | 'unreachable'
  /** The provider answered with a 4xx or 5xx status (see upstreamStatus). */
  | 'upstream_status'
  /** A 2xx answer that is not a chat completion (or a stream that broke off). */
  | 'malformed_response';

/** The typed failure of the Llm port; use cases turn it into their own contract code. */
export class LlmError extends Error {
  constructor(
    readonly reason: LlmFailureReason,
    message: string,
    readonly upstreamStatus?: number,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

export function isLlmError(error: unknown): error is LlmError {
  return error instanceof LlmError;
}

/**
 * The language-model port of the assist features: one completion as text, or the same answer
 * streamed token by token. Adapters: the deterministic sandbox (default) and an OpenAI-compatible
 * chat-completions client. Both throw LlmError when there is no usable answer; `stream` may throw
 * after it has yielded tokens.
 */
export abstract class Llm {
  abstract complete(messages: LlmMessage[], options: LlmOptions): Promise<string>;
  abstract stream(messages: LlmMessage[], options: LlmOptions): AsyncIterable<string>;
  /**
   * One embedding vector per text, in order (the knowledge module's retrieval, decisions.md 39.5):
   * the sandbox hashes words into 64 dimensions, the OpenAI-compatible adapter calls /embeddings.
   */
  abstract embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}
