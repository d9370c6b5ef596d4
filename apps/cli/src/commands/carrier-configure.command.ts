import { readFileSync } from 'node:fs';
import { Command, Option } from 'nest-commander';
import { PhoneNumberAdministration, VOICE_ADAPTERS, VoiceAdapterName } from '@outreach/telephony';
import { UsageError } from '../cli-errors';
import { OperatorCommand } from '../operator-command';
import { parseId, parseOneOf } from '../option-parsers';

interface CarrierConfigureOptions {
  workspace: string;
  carrier: string;
  adapter: VoiceAdapterName;
  baseUrl?: string;
  /** `--credentials-file`, read and parsed by its option parser. */
  credentialsFile?: Record<string, unknown>;
}

@Command({
  name: 'carrier:configure',
  description:
    "Serve a workspace's carrier by a real voice provider (twilio: accountSid, authToken[, twimlUrl]; vapi: apiKey, serverSecret[, twilioAccountSid, twilioAuthToken | credentialId]) or by the sandbox again (a new carrier is enabled; carrier:set stays its switch). Credentials are read from a JSON file, sealed at rest and never printed. Prints {workspaceId, carrier, adapter, enabled}.",
})
export class CarrierConfigureCommand extends OperatorCommand<CarrierConfigureOptions> {
  constructor(private readonly numbers: PhoneNumberAdministration) {
    super();
  }

  protected execute(options: CarrierConfigureOptions) {
    return this.numbers.configureCarrier({
      workspaceId: options.workspace,
      carrier: options.carrier,
      adapter: options.adapter,
      baseUrl: options.baseUrl ?? null,
      credentials: options.credentialsFile ?? null,
    });
  }

  @Option({ flags: '--workspace <id>', description: 'workspace id', required: true })
  parseWorkspace(raw: string): string {
    return parseId('--workspace', raw);
  }

  @Option({ flags: '--carrier <name>', description: "the carrier's name, as its numbers carry it (number:add --carrier)", required: true })
  parseCarrier(raw: string): string {
    return raw;
  }

  @Option({ flags: '--adapter <name>', description: `${VOICE_ADAPTERS.join(' | ')}`, required: true })
  parseAdapter(raw: string): VoiceAdapterName {
    return parseOneOf('--adapter', raw, VOICE_ADAPTERS);
  }

  @Option({ flags: '--base-url <url>', description: "the provider's API root (default: its public API)" })
  parseBaseUrl(raw: string): string {
    return raw;
  }

  @Option({ flags: '--credentials-file <path>', description: 'a JSON object of the credentials (kept off the command line and out of process lists)' })
  parseCredentials(raw: string): Record<string, unknown> {
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(raw, 'utf8'));
    } catch (error) {
      throw new UsageError(`--credentials-file must name a readable JSON file (${(error as Error).message})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError('--credentials-file must hold a JSON object');
    return value as Record<string, unknown>;
  }
}
