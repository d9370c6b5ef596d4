import './instrument'; // first: tracing must patch modules before they are loaded
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig, WORKER_CONFIG_DEFAULTS } from '@outreach/platform';
import { Logger } from 'nestjs-pino';
import { WorkerModule } from './worker.module';

const SHUTDOWN_GRACE_MS = 30_000;

async function bootstrap(): Promise<void> {
  loadConfig(process.env, WORKER_CONFIG_DEFAULTS);
  const app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks(); // SIGTERM: stop taking jobs, finish in-flight ones, close pools
  // BullMQ's close() can wait forever while Redis is unreachable: never outlive a stop request
  // by more than SHUTDOWN_GRACE_MS (in-flight attempts are recovered by the reaper anyway).
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref());
  }
  await app.init();
  process.stdout.write('Worker started (outbox relay and job processors)\n');
}

bootstrap().catch((error: unknown) => {
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`Worker failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
