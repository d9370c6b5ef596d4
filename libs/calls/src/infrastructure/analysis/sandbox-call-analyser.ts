import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AnalysisExtractionKey, AnalysisInput, AnalysisResult, CallAnalyser } from '../../application/analysis/call-analyser.port';

/** Fixed origin of sandbox dates, so values never depend on when the analysis ran. */
const EPOCH_MS = Date.UTC(2026, 0, 1);
const DAY_MS = 24 * 60 * 60 * 1000;
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];

/** 48 bits of SHA-256 over the parts: stable across runs, processes and machines. */
function hash(...parts: string[]): number {
  return createHash('sha256').update(parts.join('\u0000')).digest().readUIntBE(0, 6);
}

/** The value a key of this type gets for this transcript. */
export function sandboxValue(transcript: string, key: AnalysisExtractionKey): unknown {
  const h = hash('extraction', transcript, key.name);
  switch (key.type) {
    case 'number':
      return (h % 1_000_000) / 100;
    case 'integer':
      return h % 1000;
    case 'boolean':
      return h % 2 === 1;
    case 'array': {
      const length = 1 + (h % 3);
      return Array.from({ length }, (_, i) => WORDS[hash('item', transcript, key.name, String(i)) % WORDS.length]);
    }
    case 'date':
      return new Date(EPOCH_MS + (h % 365) * DAY_MS).toISOString().slice(0, 10);
    case 'datetime':
      return new Date(EPOCH_MS + (h % (365 * 24 * 60)) * 60_000).toISOString();
    default:
      return `${WORDS[h % WORDS.length]}-${(h % 0xffffff).toString(16).padStart(6, '0')}`;
  }
}

/**
 * The deterministic analysis (decisions.md 22.2, 16.12), like a payment API's test mode: every extraction
 * value derives from a hash of the transcript and the key, by the key's type; every metric picks
 * one of its allowedValues by a hash of the transcript and the metric key. Same input, same answer.
 */
@Injectable()
export class SandboxCallAnalyser extends CallAnalyser {
  async analyse(input: AnalysisInput): Promise<AnalysisResult> {
    const extraction: Record<string, unknown> = {};
    for (const key of input.extractionKeys) extraction[key.name] = sandboxValue(input.transcript, key);
    const evaluation: Record<string, string> = {};
    for (const metric of input.metrics) {
      if (metric.allowedValues.length === 0) continue;
      evaluation[metric.key] = metric.allowedValues[hash('evaluation', input.transcript, metric.key) % metric.allowedValues.length];
    }
    return { extraction, evaluation };
  }
}
