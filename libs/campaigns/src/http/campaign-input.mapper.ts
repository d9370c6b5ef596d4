import { AppError } from '@outreach/core';
import { CampaignInput } from '../application/campaign-editing.service';
import { EvaluationMetric } from '../domain/extraction-keys';
import { CampaignFieldsDto } from './dto/campaign-body.dto';

/** DTO → use-case input: ISO strings become dates, metrics get `builtin: false`, absent members stay absent. */
export function toCampaignInput<T extends CampaignFieldsDto>(dto: T): CampaignInput & Omit<T, keyof CampaignFieldsDto> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(dto)) {
    if (value !== undefined) out[key] = value;
  }
  for (const key of ['scheduledStartAt', 'scheduledEndAt'] as const) {
    const value = dto[key];
    if (typeof value === 'string') {
      const date = new Date(value);
      if (Number.isNaN(date.getTime())) throw new AppError('invalid_body', { issues: [{ path: key, message: `${key} is not a valid date` }] });
      out[key] = date;
    }
  }
  if (dto.evaluationMetrics) {
    out.evaluationMetrics = dto.evaluationMetrics.map(
      (m): EvaluationMetric => ({ key: m.key, label: m.label, allowedValues: [...m.allowedValues], prompt: m.prompt, builtin: false }),
    );
  }
  if (dto.customExtractionKeys) {
    out.customExtractionKeys = dto.customExtractionKeys.map((k) => ({ name: k.name, type: k.type, description: k.description }));
  }
  return out as CampaignInput & Omit<T, keyof CampaignFieldsDto>;
}
