// Every e2e answer is checked against the OpenAPI document (issue 20, item 2; decisions.md 1.18):
// TestApp.http hands out supertest requests whose answers, when their route is in the document,
// must satisfy it (jest-openapi's toSatisfyApiSpec: a documented status, a body matching its
// schema, so an error code the operation does not list fails the test that provoked it). The
// answers are checked in an afterEach of that test, so timed requests are not slowed down.
// The document is the API's own (ApiModule in preview mode, written once per jest run), so routes
// that only a test module registers are not checked. OPENAPI_CHECK=0 turns the check off.
import { readFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { openApiDocument } from '@outreach/platform';
import jestOpenAPI from 'jest-openapi';
import type { Response, Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { ApiModule } from '../../apps/api/src/api.module';
import { reuseResponseValidators } from './openapi-response-validators';

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

reuseResponseValidators();

let documented: Promise<Array<{ method: string; path: RegExp }>> | undefined;

/** The documented operations, as method + path pattern; jest-openapi is given the document once. */
function documentedOperations(): Promise<Array<{ method: string; path: RegExp }>> {
  documented ??= (async () => {
    const document = await apiDocument();
    // jest-openapi takes the last template that matches a path (…/leads/{leadId} for …/leads/batch):
    // it is given the paths ordered from the most parameters to the fewest, so the most literal wins.
    const params = (path: string) => path.split('{').length;
    const paths = Object.fromEntries(Object.entries(document.paths).sort(([a], [b]) => params(b) - params(a)));
    jestOpenAPI({ ...document, paths } as never);
    return Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => ({ method, path: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`) })),
    );
  })();
  return documented;
}

/**
 * The API's document: the one the jest run's global setup wrote from dist/ (test/support/global-setup.js),
 * or, in a run without it, built here from ApiModule in preview mode.
 */
async function apiDocument(): Promise<ReturnType<typeof openApiDocument>> {
  const file = process.env.OPENAPI_CHECK_DOCUMENT;
  if (file) return JSON.parse(readFileSync(file, 'utf8')) as ReturnType<typeof openApiDocument>;
  const app = await NestFactory.create(ApiModule, { preview: true, logger: false, abortOnError: false });
  return openApiDocument(app);
}

/** Starts building the document; TestApp.create awaits it so the first request is not slowed. */
export async function prepareOpenApiCheck(): Promise<void> {
  if (process.env.OPENAPI_CHECK !== '0') await documentedOperations();
}

async function assertSatisfiesDocument(res: Response): Promise<void> {
  const req = (res as unknown as { req: { method: string; path: string } }).req;
  const method = req.method.toLowerCase();
  const path = req.path.split('?')[0];
  const operations = await documentedOperations();
  if (!operations.some((o) => o.method === method && o.path.test(path))) return;
  // jest-openapi's path parser matches a parameter of URL-safe characters only; a fuzzed id such as
  // `%CA%95!(` is handed to it as `_` (the operation is the same, found above).
  const safePath = path
    .split('/')
    .map((segment) => (/^[\w\-.~%':|=+*@$]*$/.test(segment) ? segment : '_'))
    .join('/');
  const checkedReq = safePath === path ? req : { method: req.method, path: safePath };
  const base = safePath === path ? res : { status: res.status, headers: res.headers, body: res.body, text: res.text, req: checkedReq };
  // A binary answer (audio…) is checked for its status and media type; its bytes have no schema to meet.
  const checkedAnswer = Buffer.isBuffer(res.body) ? { status: res.status, headers: res.headers, req: checkedReq, body: {}, text: '<binary>' } : base;
  expect(checkedAnswer).toSatisfyApiSpec();
}

/** Answers waiting to be checked; the check runs after the test, so it never adds to a timed request. */
const answers: Response[] = [];

afterEach(async () => {
  const taken = answers.splice(0);
  for (const res of taken) await assertSatisfiesDocument(res);
});

function checked(test: Test): Test {
  const end = test.end.bind(test);
  test.end = (callback?: (err: unknown, res: Response) => void) =>
    end((err: unknown, res: Response) => {
      if (!err && res) answers.push(res);
      callback?.(err, res);
    });
  return test;
}

/** A supertest agent whose requests are checked against the document (see above). */
export function checkedAgent(agent: TestAgent): TestAgent {
  if (process.env.OPENAPI_CHECK === '0') return agent;
  return new Proxy(agent, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop !== 'string' || !METHODS.has(prop) || typeof value !== 'function') return value;
      return (...args: unknown[]) => checked((value as (...a: unknown[]) => Test).apply(target, args));
    },
  });
}
