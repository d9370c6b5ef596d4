import './instrument'; // first: tracing must patch modules before they are loaded
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppConfig, ConfigError, configureApiApp, loadConfig } from '@outreach/platform';
import { ApiModule } from './api.module';

async function bootstrap(): Promise<void> {
  loadConfig(); // fail fast, before Nest starts, with one line per bad variable
  const app = await NestFactory.create(ApiModule, { bodyParser: false, bufferLogs: true });
  configureApiApp(app);
  const config = app.get(AppConfig);
  await app.listen(config.port, config.host);
  const server = app.getHttpServer();
  server.requestTimeout = 30_000; // no request may hang a socket forever
  server.headersTimeout = 20_000; // at most requestTimeout, or Node ignores it
  server.keepAliveTimeout = 65_000;
  const shown = config.host === '0.0.0.0' ? 'localhost' : config.host;
  process.stdout.write(`API listening on http://${shown}:${config.port} (docs: http://${shown}:${config.port}/docs)\n`);
}

bootstrap().catch((error: unknown) => {
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`API failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
