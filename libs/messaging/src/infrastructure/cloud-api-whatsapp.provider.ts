import { AppError } from '@outreach/core';
import { AcceptedMessage, OutboundWhatsappMessage, WhatsappCredentials, WhatsappProvider } from '../application/message-provider.port';
import type { SenderVerification } from '../domain/whatsapp-sender';
import type { TemplateReview, WhatsappTemplateFields } from '../domain/whatsapp-template';
import { sandboxTemplateReview } from './sandbox-whatsapp.provider';

export interface CloudApiOptions {
  /** e.g. https://graph.facebook.com/v21.0 (WHATSAPP_GRAPH_BASE_URL). */
  baseUrl: string;
  timeoutMs: number;
  /** Further tries after a 5xx or an unreachable API (default 2). */
  retries?: number;
  /** Wait before the first retry, doubled for each next one (default 200 ms). */
  retryDelayMs?: number;
  /** Injected in tests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

/**
 * Graph error codes that mean "not now" although Graph answers them with a 4xx: throughput and
 * pair rate limits, and its own temporary errors. A send refused so is retried later.
 */
const RETRYABLE_GRAPH_CODES = new Set([4, 80007, 130429, 131000, 131016, 131056]);

type GraphAnswer = { status: number; body: Record<string, unknown> | null; text: string };

/**
 * The WhatsApp Cloud API (Graph) adapter (decisions.md 30.18). Sends template messages with
 * POST {base}/{phone-number-id}/messages (`messaging_product: whatsapp`, `type: template`, the body
 * parameters in order), bearer token = the sender's access token; the answer's `messages[0].id` (a
 * wamid) is the provider's id. Verifies a sender with GET {base}/{phone-number-id}?fields=
 * verified_name,quality_rating. A 5xx or an unreachable API is tried again (`retries`, backing
 * off), then answered 502 provider_error with upstreamStatus (none when unreachable); a 4xx is
 * 502 provider_error with the upstream status and Graph's `{error: {code, message}}` in the
 * message and detail (`retryable` for Graph's rate-limit codes). Template review stays the
 * sandbox's: submitting templates to a WhatsApp Business account is later work. Every send carries
 * our message id as `biz_opaque_callback_data`, which Graph echoes in the message's status webhooks
 * (decisions.md 33.16).
 */
export class CloudApiWhatsappProvider extends WhatsappProvider {
  readonly name = 'cloud_api';
  private readonly fetchFn: typeof fetch;
  private readonly base: string;

  constructor(private readonly options: CloudApiOptions) {
    super();
    this.fetchFn = options.fetch ?? fetch;
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  async send(message: OutboundWhatsappMessage): Promise<AcceptedMessage> {
    const credentials = required(message.credentials);
    const body = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: message.to.replace(/^\+/, ''),
      type: 'template',
      // Graph echoes this in every status webhook of the message: a retake after a crash waits for
      // it instead of sending again (decisions.md 33.16).
      biz_opaque_callback_data: message.messageId,
      template: {
        name: message.templateName,
        language: { code: message.language },
        components: message.parameters.length > 0 ? [{ type: 'body', parameters: message.parameters.map((text) => ({ type: 'text', text })) }] : [],
      },
    };
    const answer = await this.call('POST', `/${encodeURIComponent(credentials.phoneNumberId)}/messages`, credentials.accessToken, body);
    const id = (answer.body?.messages as Array<{ id?: unknown }> | undefined)?.[0]?.id;
    if (typeof id !== 'string' || id === '') {
      throw new AppError('provider_error', { message: 'the WhatsApp Cloud API accepted the message without an id', upstreamStatus: answer.status });
    }
    return { providerMessageId: id };
  }

  async verifySender(request: { senderId: string; e164: string; credentials: WhatsappCredentials | null }): Promise<SenderVerification> {
    const credentials = required(request.credentials);
    let answer: GraphAnswer;
    try {
      answer = await this.call('GET', `/${encodeURIComponent(credentials.phoneNumberId)}?fields=verified_name,quality_rating,display_phone_number`, credentials.accessToken);
    } catch (error) {
      // A refusal of the number or the token is the verification's answer; an outage is retried by the job.
      const upstream = (error as AppError).options?.upstreamStatus;
      if (error instanceof AppError && upstream !== undefined && upstream >= 400 && upstream < 500 && upstream !== 429) {
        return { ok: false, reason: error.message };
      }
      throw error;
    }
    const verifiedName = typeof answer.body?.verified_name === 'string' ? answer.body.verified_name : null;
    if (!verifiedName) return { ok: false, reason: 'the WhatsApp Cloud API knows the number but it has no verified name yet' };
    const quality = typeof answer.body?.quality_rating === 'string' ? answer.body.quality_rating : 'UNKNOWN';
    return { ok: true, verifiedName, qualityRating: quality };
  }

  async reviewTemplate(request: { templateId: string; fields: WhatsappTemplateFields }): Promise<TemplateReview> {
    return sandboxTemplateReview(request.fields.name);
  }

  private async call(method: 'GET' | 'POST', path: string, token: string, body?: unknown): Promise<GraphAnswer> {
    const retries = this.options.retries ?? 2;
    const delay = this.options.retryDelayMs ?? 200;
    for (let attempt = 0; ; attempt++) {
      let answer: GraphAnswer | null = null;
      let unreachable: string | null = null;
      const signal = AbortSignal.timeout(this.options.timeoutMs);
      try {
        const response = await this.fetchFn(`${this.base}${path}`, {
          method,
          headers: { Authorization: `Bearer ${token}`, Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
          signal,
        });
        const text = await response.text();
        answer = { status: response.status, body: parseObject(text), text };
      } catch (error) {
        unreachable = signal.aborted ? `no answer within ${this.options.timeoutMs} ms` : describe(error);
      }
      if (answer && answer.status >= 200 && answer.status < 300) return answer;
      if (answer && answer.status < 500) throw graphRefusal(answer);
      if (attempt >= retries) {
        throw new AppError('provider_error', {
          message: answer ? `the WhatsApp Cloud API answered ${answer.status} ${attempt + 1} times` : `the WhatsApp Cloud API could not be reached: ${unreachable}`,
          ...(answer ? { upstreamStatus: answer.status } : {}),
        });
      }
      await new Promise((resolve) => setTimeout(resolve, delay * 2 ** attempt));
    }
  }
}

function required(credentials: WhatsappCredentials | null): WhatsappCredentials {
  if (!credentials) throw new AppError('provider_error', { message: 'the WhatsApp Cloud API needs the sender’s credentials' });
  return credentials;
}

/** A 4xx of Graph: `{error: {message, type, code, error_subcode, fbtrace_id}}`. */
function graphRefusal(answer: GraphAnswer): AppError {
  const error = (answer.body?.error ?? {}) as { code?: unknown; message?: unknown; error_subcode?: unknown };
  const code = typeof error.code === 'number' ? error.code : null;
  const text = typeof error.message === 'string' ? error.message : answer.text.slice(0, 200);
  return new AppError('provider_error', {
    message: `the WhatsApp Cloud API refused: ${code ?? answer.status} ${text}`.trim(),
    upstreamStatus: answer.status,
    detail: { graphCode: code, retryable: answer.status === 429 || (code !== null && RETRYABLE_GRAPH_CODES.has(code)) },
  });
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
