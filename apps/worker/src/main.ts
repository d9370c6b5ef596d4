import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '@outreach/platform';
import { Logger } from 'nestjs-pino';
import { WorkerModule } from './worker.module';

async function bootstrap(): Promise<void> {
  loadConfig(process.env, { dbQueryTimeoutMs: 60_000 });
  const app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks(); // SIGTERM: stop taking jobs, finish in-flight ones, close pools
  await app.init();
  process.stdout.write('Worker started (outbox relay and job processors)\n');
}

bootstrap().catch((error: unknown) => {
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`Worker failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
