import { CommandRunner, Option } from 'nest-commander';
import { parseOneOf } from './option-parsers';
import { OUTPUT_FORMATS, OutputFormat, renderAnswer } from './output-format';

/**
 * Base of every operator command: parse options (nest-commander @Option methods), run one use
 * case, print its answer on stdout: one JSON document, or with `--format table` a table for
 * people. Failures propagate to main.ts, which prints one line on stderr and sets the exit code.
 */
export abstract class OperatorCommand<Options extends object> extends CommandRunner {
  async run(_params: string[], options?: Record<string, unknown>): Promise<void> {
    const { format = 'json', ...commandOptions } = options ?? {};
    const result = await this.execute(commandOptions as Options);
    process.stdout.write(renderAnswer(result, format as OutputFormat));
  }

  protected abstract execute(options: Options): Promise<unknown>;

  @Option({ flags: '--format <format>', description: 'output: json (the default, for scripts) or table (for people)' })
  parseFormat(raw: string): OutputFormat {
    return parseOneOf('--format', raw, OUTPUT_FORMATS);
  }
}
