/** A field the analysis extracts from a conversation (a campaign's effective extraction keys). */
export interface AnalysisExtractionKey {
  name: string;
  /** string, number, integer, boolean, array, date or datetime; anything else is read as string. */
  type: string;
  description: string;
}

/** A judgement the analysis makes about a conversation: one of `allowedValues`. */
export interface AnalysisMetric {
  key: string;
  label: string;
  allowedValues: string[];
  prompt: string;
}

export interface AnalysisInput {
  transcript: string;
  extractionKeys: AnalysisExtractionKey[];
  metrics: AnalysisMetric[];
}

export interface AnalysisResult {
  /** Extracted values by key name; a key the conversation did not settle is left out. */
  extraction: Record<string, unknown>;
  /** Metric key → one of that metric's allowedValues; a metric left undecided is left out. */
  evaluation: Record<string, string>;
}

/** Why an analysis provider gave no usable answer. */
export type AnalysisFailureReason =
  /** No answer within ANALYSIS_TIMEOUT_MS. */
  | 'timeout'
  /** Connection refused, reset, DNS… */
  | 'unreachable'
  /** The provider answered with a 4xx or 5xx status (see upstreamStatus). */
  | 'upstream_status'
  /** A 2xx answer whose body or message content is not the JSON asked for. */
  | 'malformed_response';

/**
 * The typed failure of a CallAnalyser. `retryable` says whether asking again later may help
 * (timeouts, unreachable, 429 and 5xx); the worker retries those, the synchronous use case
 * reports 502 analysis_failed.
 */
export class AnalysisProviderError extends Error {
  readonly retryable: boolean;

  constructor(
    readonly reason: AnalysisFailureReason,
    message: string,
    readonly upstreamStatus?: number,
  ) {
    super(message);
    this.name = 'AnalysisProviderError';
    this.retryable =
      reason === 'timeout' ||
      reason === 'unreachable' ||
      (reason === 'upstream_status' && upstreamStatus !== undefined && (upstreamStatus === 429 || upstreamStatus >= 500));
  }
}

export function isAnalysisProviderError(error: unknown): error is AnalysisProviderError {
  return error instanceof AnalysisProviderError;
}

/**
 * The analysis port: extraction of fields and evaluation of metrics from a transcript. Adapters:
 * a deterministic sandbox and an OpenAI-compatible chat-completions client. Throws
 * AnalysisProviderError when the provider gives no usable answer.
 */
export abstract class CallAnalyser {
  abstract analyse(input: AnalysisInput): Promise<AnalysisResult>;
}

/**
 * Keeps what the provider may legitimately answer: known extraction keys only, and evaluation
 * values that are among the metric's allowedValues (compared exactly, then case-insensitively,
 * answering the allowed spelling). Anything else is dropped rather than stored.
 */
export function sanitiseAnalysis(input: AnalysisInput, raw: { extraction: Record<string, unknown>; evaluation: Record<string, unknown> }): AnalysisResult {
  const extraction: Record<string, unknown> = {};
  for (const key of input.extractionKeys) {
    if (Object.prototype.hasOwnProperty.call(raw.extraction, key.name) && raw.extraction[key.name] !== undefined && raw.extraction[key.name] !== null) {
      extraction[key.name] = raw.extraction[key.name];
    }
  }
  const evaluation: Record<string, string> = {};
  for (const metric of input.metrics) {
    const value = raw.evaluation[metric.key];
    if (typeof value !== 'string') continue;
    const allowed = metric.allowedValues.find((v) => v === value) ?? metric.allowedValues.find((v) => v.toLowerCase() === value.trim().toLowerCase());
    if (allowed !== undefined) evaluation[metric.key] = allowed;
  }
  return { extraction, evaluation };
}
