import { RESERVED_SIGNAL_NAMES } from '@outreach/campaigns';

/** What the model proposes for a campaign drafted from a brief. */
export interface CampaignProposal {
  name: string;
  goal: string;
  description: string | null;
  /** The steps the voice agent's prompt should follow (the agent owns prompts: the client uses these to write it). */
  agentPromptOutline: string[];
  extractionKeys: Array<{ name: string; type: string; description: string }>;
  metrics: Array<{ key: string; label: string; allowedValues: string[]; prompt: string }>;
}

const KEY_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const KEY_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'date', 'datetime'];
const reserved = new Set(RESERVED_SIGNAL_NAMES.map((name) => name.toLowerCase()));

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, max: number): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : null);

/**
 * Reads the model's answer as a proposal within the campaign's own bounds (name 1-100, goal ≤ 500,
 * description ≤ 280, ≤ 40 keys, ≤ 20 metrics): keys and metrics the campaign would refuse
 * (malformed names, built-in signal names, duplicates, a metric named like a key, no allowed
 * values) are left out rather than failing the draft. Null when the answer is not a JSON object
 * with a name and a goal: no campaign can be drafted from it.
 */
export function readProposal(answer: string): CampaignProposal | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, ''));
  } catch {
    return null;
  }
  if (!isObject(parsed)) return null;
  const name = text(parsed.name, 100);
  const goal = text(parsed.goal, 500);
  if (name === null || goal === null) return null;

  const outlineSource = typeof parsed.agentPromptOutline === 'string' ? parsed.agentPromptOutline.split('\n') : parsed.agentPromptOutline;
  const agentPromptOutline = (Array.isArray(outlineSource) ? outlineSource : []).flatMap((step) => text(step, 2000) ?? []).slice(0, 30);

  const seen = new Set<string>();
  const extractionKeys: CampaignProposal['extractionKeys'] = [];
  for (const key of Array.isArray(parsed.extractionKeys) ? parsed.extractionKeys : []) {
    if (!isObject(key) || typeof key.name !== 'string') continue;
    const keyName = key.name.trim();
    if (!KEY_PATTERN.test(keyName) || keyName.length > 64 || reserved.has(keyName.toLowerCase()) || seen.has(keyName.toLowerCase())) continue;
    seen.add(keyName.toLowerCase());
    const type = typeof key.type === 'string' && KEY_TYPES.includes(key.type) ? key.type : 'string';
    extractionKeys.push({ name: keyName, type, description: text(key.description, 500) ?? keyName });
    if (extractionKeys.length === 40) break;
  }

  const metrics: CampaignProposal['metrics'] = [];
  for (const metric of Array.isArray(parsed.metrics) ? parsed.metrics : []) {
    if (!isObject(metric) || typeof metric.key !== 'string') continue;
    const key = metric.key.trim();
    if (!KEY_PATTERN.test(key) || key.length > 64 || reserved.has(key.toLowerCase()) || seen.has(key.toLowerCase())) continue;
    const values = [...new Set((Array.isArray(metric.allowedValues) ? metric.allowedValues : []).flatMap((v) => text(v, 100) ?? []))].slice(0, 20);
    const prompt = text(metric.prompt, 5000);
    if (values.length === 0 || prompt === null) continue;
    seen.add(key.toLowerCase());
    metrics.push({ key, label: text(metric.label, 100) ?? key, allowedValues: values, prompt });
    if (metrics.length === 20) break;
  }

  return { name, goal, description: text(parsed.description, 280), agentPromptOutline, extractionKeys, metrics };
}
