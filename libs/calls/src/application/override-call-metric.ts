import { Injectable } from '@nestjs/common';
import { AppError, Clock, UnitOfWork } from '@outreach/core';
import { AnalysisSubjects, CallAnalysisStore } from './analysis/call-analysis.ports';
import type { CallRecord } from './call-queries';

export interface OverrideCallMetricInput {
  callId: string;
  key: string;
  value: string;
}

/**
 * An operator's correction of one evaluation metric of a call (the CLI's `call:set-metric`; over
 * HTTP every API key gets 403 operator_only). The key must be one of the call's campaign's
 * evaluation metrics (400 unknown_metric; a test call has none) and the value one of its
 * allowedValues (400 invalid_value). The analysis's own evaluation is kept; the override is stored
 * beside it with the value it replaced (see MetricOverride) and wins in every read.
 */
@Injectable()
export class OverrideCallMetric {
  constructor(
    private readonly store: CallAnalysisStore,
    private readonly subjects: AnalysisSubjects,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(input: OverrideCallMetricInput): Promise<CallRecord> {
    const call = await this.store.findById(input.callId);
    if (!call) throw new AppError('call_not_found', { message: `no call ${input.callId}` });
    const { metrics } = await this.subjects.forCall(call);
    const metric = metrics.find((m) => m.key === input.key);
    if (!metric) {
      throw new AppError('unknown_metric', {
        message: call.campaignId
          ? `the call's campaign has no evaluation metric ${JSON.stringify(input.key)}`
          : 'a test call belongs to no campaign, so it has no evaluation metrics',
        detail: { key: input.key, metrics: metrics.map((m) => m.key) },
      });
    }
    if (!metric.allowedValues.includes(input.value)) {
      throw new AppError('invalid_value', {
        message: `${JSON.stringify(input.value)} is not one of the allowed values of ${metric.key}`,
        detail: { key: metric.key, allowedValues: metric.allowedValues },
      });
    }
    return this.uow.run(async () => {
      const locked = await this.store.findById(call.id, { lock: true });
      if (!locked) throw new AppError('call_not_found', { message: `no call ${input.callId}` });
      const analysed = locked.evaluation?.[metric.key];
      await this.store.recordMetricOverride(call.id, metric.key, {
        value: input.value,
        originalValue: typeof analysed === 'string' ? analysed : null,
        overriddenAt: this.clock.now().toISOString(),
      });
      const updated = await this.store.findById(call.id);
      return updated!;
    });
  }
}
