import { CommandRunner } from 'nest-commander';

/**
 * Base of every operator command: parse options (nest-commander @Option methods), run one use
 * case, print its answer as one JSON document on stdout. Failures propagate to main.ts, which
 * prints one line on stderr and sets the exit code.
 */
export abstract class OperatorCommand<Options extends object> extends CommandRunner {
  async run(_params: string[], options?: Record<string, unknown>): Promise<void> {
    const result = await this.execute((options ?? {}) as Options);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  }

  protected abstract execute(options: Options): Promise<unknown>;
}
