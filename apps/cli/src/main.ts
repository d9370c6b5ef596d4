import 'reflect-metadata';
import { CommandFactory } from 'nest-commander';
import { loadConfig } from '@outreach/platform';
import { EXIT_OK, reportFailure } from './cli-errors';
import { CliModule } from './cli.module';
import { CliProgram } from './cli-program';
import { preflight } from './preflight';

/**
 * The operator CLI: `npm run --silent operator -- <command> [options]`.
 * stdout carries exactly one JSON document (the answer); everything else goes to stderr.
 */
async function main(argv: string[]): Promise<number> {
  let exitCode = EXIT_OK;
  const fail = (error: unknown) => {
    exitCode = reportFailure(error);
  };
  try {
    const config = loadConfig(); // one readable line per bad variable, before anything connects
    await preflight(config, argv[2]);
    const app = await CommandFactory.createWithoutRunning(CliModule, {
      logger: false, // nothing but the answer on stdout
      abortOnError: false, // a boot failure is reported below, not a process.abort()
      serviceErrorHandler: fail,
    });
    try {
      app.get(CliProgram).configure();
      await CommandFactory.runApplication(app);
    } finally {
      await app.close(); // closes the Postgres pool so the process can end
    }
  } catch (error) {
    fail(error);
  }
  return exitCode;
}

void main(process.argv).then((code) => {
  process.exitCode = code;
  // Everything is closed by now; should a stray handle still hold the event loop, do not hang.
  setTimeout(() => process.exit(code), 2000).unref();
});
