import { Injectable } from '@nestjs/common';
import { AnalyseCall, CallQueries, CallRecord, LIVE_CALL_STATUSES } from '@outreach/calls';
import { AppError, Clock } from '@outreach/core';
import { SpeechTranslation, SpeechTranslations } from '../assist.ports';
import { isLlmError, Llm } from '../llm/llm.port';

/**
 * A speech call: the speech-analysis view of a call of the workspace (campaign attempt or test
 * call) — its transcript, its analysis (extraction and evaluation, operator overrides applied)
 * and the translations of its transcript. A read model over the calls module's query port; the
 * only thing it stores itself is translations.
 */
export interface SpeechCallView {
  id: string;
  campaignId: string | null;
  agentId: string | null;
  kind: string;
  status: string;
  outcome: string | null;
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  transcript: string | null;
  recordingUrl: string | null;
  analysisStatus: string;
  extraction: Record<string, unknown> | null;
  evaluation: Record<string, string> | null;
  translations: Array<{ language: string; text: string; createdAt: string }>;
}

export interface SpeechCallFilter {
  campaignId?: string;
}

const SYSTEM_PROMPT = [
  'You translate phone call transcripts.',
  'Keep the speaker labels and line breaks; translate everything else faithfully; add nothing.',
].join(' ');

/** GET /speech/calls, GET /speech/calls/{id}, POST /speech/calls/{id}/translate and …/analyse. */
@Injectable()
export class SpeechCalls {
  constructor(
    private readonly calls: CallQueries,
    private readonly analysis: AnalyseCall,
    private readonly translations: SpeechTranslations,
    private readonly llm: Llm,
    private readonly clock: Clock,
  ) {}

  async list(workspaceId: string, filter: SpeechCallFilter, page: { offset: number; limit: number }): Promise<{ items: SpeechCallView[]; total: number }> {
    const { items, total } = await this.calls.list(workspaceId, { campaignId: filter.campaignId }, page);
    const translations = await this.translations.forCalls(workspaceId, items.map((c) => c.id));
    return { items: items.map((call) => toSpeechCall(call, translations.get(call.id) ?? [])), total };
  }

  async get(workspaceId: string, callId: string): Promise<SpeechCallView> {
    const call = await this.require(workspaceId, callId);
    return toSpeechCall(call, (await this.translations.forCalls(workspaceId, [call.id])).get(call.id) ?? []);
  }

  /**
   * The transcript in `language` (a BCP 47 tag such as fr or pt-BR), asked of the model once per
   * call and language and kept. 404 call_not_found → 400 no_transcript → 502 provider_error when
   * the model fails (with upstreamStatus when it answered with an error status).
   */
  async translate(workspaceId: string, callId: string, requested: string): Promise<SpeechTranslation> {
    const language = canonicalLanguage(requested);
    const call = await this.require(workspaceId, callId);
    if (call.transcript === null || call.transcript.trim() === '') {
      const live = (LIVE_CALL_STATUSES as readonly string[]).includes(call.status);
      throw new AppError('no_transcript', { message: live ? 'the call has not ended yet' : 'the call has no transcript' });
    }
    const stored = await this.translations.find(workspaceId, call.id, language);
    if (stored) return stored;
    let text: string;
    try {
      text = await this.llm.complete(
        [
          { role: 'system', content: `${SYSTEM_PROMPT}\nTarget language: ${language}` },
          { role: 'user', content: call.transcript },
        ],
        { purpose: 'translation', temperature: 0 },
      );
    } catch (error) {
      if (!isLlmError(error)) throw error;
      throw new AppError('provider_error', { message: `the translation failed: ${error.message}`, upstreamStatus: error.upstreamStatus, detail: { reason: error.reason } });
    }
    if (text.trim() === '') throw new AppError('provider_error', { message: 'the language model answered with an empty translation' });
    return this.translations.save({ callId: call.id, workspaceId, language, text: text.trim(), createdAt: this.clock.now() });
  }

  /**
   * Extraction and evaluation of the call through the calls module's analysis (the same as the
   * worker's): 404 call_not_found, 400 no_extraction_data, 502 analysis_failed. A call analysed
   * already answers its analysis again.
   */
  async analyse(workspaceId: string, callId: string): Promise<SpeechCallView> {
    await this.require(workspaceId, callId);
    await this.analysis.execute(workspaceId, callId);
    return this.get(workspaceId, callId);
  }

  private async require(workspaceId: string, callId: string): Promise<CallRecord> {
    const call = await this.calls.findById(workspaceId, callId);
    if (!call) throw new AppError('call_not_found', { message: `no call ${callId}` });
    return call;
  }
}

/** The evaluation with the operator's overrides applied (as every read of a call shows it). */
export function effectiveEvaluation(call: Pick<CallRecord, 'evaluation' | 'metricOverrides'>): Record<string, string> | null {
  const overrides = Object.entries(call.metricOverrides);
  if (call.evaluation === null && overrides.length === 0) return null;
  return { ...((call.evaluation ?? {}) as Record<string, string>), ...Object.fromEntries(overrides.map(([key, o]) => [key, o.value])) };
}

function toSpeechCall(call: CallRecord, translations: SpeechTranslation[]): SpeechCallView {
  return {
    id: call.id,
    campaignId: call.campaignId,
    agentId: call.agentId,
    kind: call.kind,
    status: call.status,
    outcome: call.outcome,
    startedAt: call.startedAt,
    endedAt: call.endedAt,
    durationMs: call.durationMs,
    transcript: call.transcript,
    recordingUrl: call.recordingUrl,
    analysisStatus: call.analysisStatus,
    extraction: call.extraction,
    evaluation: effectiveEvaluation(call),
    translations: translations.map((t) => ({ language: t.language, text: t.text, createdAt: t.createdAt.toISOString() })),
  };
}

/** `pt-br` → `pt-BR` (one stored translation per language, however the tag was written). */
function canonicalLanguage(tag: string): string {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? tag;
  } catch {
    return tag;
  }
}
