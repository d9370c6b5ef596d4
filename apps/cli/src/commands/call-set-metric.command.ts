import { Command, Option } from 'nest-commander';
import { OverrideCallMetric } from '@outreach/calls';
import { OperatorCommand } from '../operator-command';
import { parseId } from '../option-parsers';

interface CallSetMetricOptions {
  call: string;
  key: string;
  value: string;
}

@Command({
  name: 'call:set-metric',
  description:
    "Override one evaluation metric of a call (operator only; API keys get 403 operator_only). The key must be one of the call's campaign's metrics (unknown_metric) and the value one of its allowedValues (invalid_value). The analysis's value is kept as originalValue. Prints {callId, key, value, originalValue, overriddenAt, evaluation}.",
})
export class CallSetMetricCommand extends OperatorCommand<CallSetMetricOptions> {
  constructor(private readonly overrideMetric: OverrideCallMetric) {
    super();
  }

  protected async execute(options: CallSetMetricOptions) {
    const call = await this.overrideMetric.execute({ callId: options.call, key: options.key, value: options.value });
    const override = call.metricOverrides[options.key];
    return {
      callId: call.id,
      key: options.key,
      value: override.value,
      originalValue: override.originalValue,
      overriddenAt: override.overriddenAt,
      evaluation: { ...(call.evaluation ?? {}), ...Object.fromEntries(Object.entries(call.metricOverrides).map(([k, o]) => [k, o.value])) },
    };
  }

  @Option({ flags: '--call <id>', description: 'call id', required: true })
  parseCall(raw: string): string {
    return parseId('--call', raw);
  }

  @Option({ flags: '--key <metric>', description: "evaluation metric key of the call's campaign", required: true })
  parseKey(raw: string): string {
    return raw;
  }

  @Option({ flags: '--value <value>', description: "one of the metric's allowedValues", required: true })
  parseValue(raw: string): string {
    return raw;
  }
}
