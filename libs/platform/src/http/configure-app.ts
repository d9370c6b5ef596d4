import { INestApplication } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppConfig } from '@outreach/core';
import { requestLogging, rootLogger } from '../observability/logging';
import { MetricsService } from '../observability/metrics';
import { jsonBodyMiddleware } from './json-body.middleware';
import { openApiDocument } from './openapi/openapi-document';
import { requestIdMiddleware } from './request-id.middleware';
import { fixedSecurityHeaders } from './security-headers.middleware';
import { AppValidationPipe } from './validation.pipe';

const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
};

/**
 * The HTTP pipeline of the API, shared by main.ts and the e2e tests so both run the same stack:
 * request id → request logging → metrics → security headers → JSON body (1 MB) → routes (guards, pipe, filter).
 * Create the app with `{ bodyParser: false }`: the body parser here renders its own errors.
 */
export function configureApiApp(app: INestApplication): void {
  const config = app.get(AppConfig);
  app.useLogger(app.get(Logger));
  app.use(requestIdMiddleware);
  app.use(requestLogging(rootLogger(config)));
  app.use(app.get(MetricsService).middleware());
  app.use(fixedSecurityHeaders({ contentSecurityPolicy: { directives: CSP_DIRECTIVES } }));
  app.use(jsonBodyMiddleware(config.bodyLimitBytes));
  app.useGlobalPipes(new AppValidationPipe());
  app.enableShutdownHooks();
  setupOpenApi(app);
}

/**
 * /docs and /docs-json build the document on their first request, not at boot: building it walks
 * every route's metadata (about 0.8 s on this machine), which a process that is never asked for its
 * document (every test app, a worker-side API) need not pay. `npm run lint:openapi` builds it in CI.
 */
function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => openApiDocument(app) as never, {
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { persistAuthorization: true },
  });
}
