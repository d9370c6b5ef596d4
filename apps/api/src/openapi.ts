import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { openApiDocument } from '@outreach/platform';
import { ApiModule } from './api.module';

/**
 * Writes the OpenAPI document the API serves at /docs-json, without a database, Redis or a port:
 * the app is built in preview mode (the module graph and its route metadata, no provider is
 * instantiated). `node dist/apps/api/src/openapi.js [file]` (stdout without a file); used by
 * `npm run lint:openapi`.
 */
async function main(): Promise<void> {
  const app = await NestFactory.create(ApiModule, { preview: true, logger: false, abortOnError: false });
  const json = `${JSON.stringify(openApiDocument(app), null, 2)}\n`;
  const file = process.argv[2];
  if (file) writeFileSync(file, json);
  else await new Promise<void>((resolve) => process.stdout.write(json, () => resolve())); // flushed before exit (a pipe takes 64 KB at a time)
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`OpenAPI document failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
