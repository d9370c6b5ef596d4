// The answer check every e2e request goes through (test/support/openapi-check.ts): jest-openapi's
// toSatisfyApiSpec against the API's own document, with each response validator built once and
// reused, on one ajv holding the document's components (decisions.md 10.13, 48.1). An answer that breaks its schema must still fail, also when the
// validator of its response was built by an earlier answer.
import { prepareOpenApiCheck } from '../support/openapi-check';

/** An answer of GET /v1/workspace as the check sees it (the shape test/support/openapi-check.ts hands over). */
const answer = (status: number, body: unknown) => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body,
  text: JSON.stringify(body),
  req: { method: 'GET', path: '/v1/workspace' },
});

describe('the OpenAPI answer check', () => {
  beforeAll(() => prepareOpenApiCheck(), 60_000);

  it('passes a documented answer and fails a body against its schema, first and again from the kept validator', () => {
    const good = answer(401, { error: 'invalid_api_key', message: 'no such key' });
    const wrongType = answer(401, { error: 'invalid_api_key', message: 42 });
    const missingField = answer(401, { error: 'unauthorized' });
    const undocumentedCode = answer(401, { error: 'not_found', message: 'x' });
    for (let round = 1; round <= 2; round++) {
      expect(good).toSatisfyApiSpec();
      expect(() => expect(wrongType).toSatisfyApiSpec()).toThrow(/message must be string/);
      expect(() => expect(missingField).toSatisfyApiSpec()).toThrow(/must have required property 'message'/);
      expect(() => expect(undocumentedCode).toSatisfyApiSpec()).toThrow(/must be equal to one of the allowed values/);
    }
  });

  it("reads OpenAPI 3's nullable in a referenced component: null passes where the field is nullable, a number does not", () => {
    const workspace = {
      id: '3f6c2a9e-8b1d-4c57-9a0e-2d4b6f8a1c3e',
      name: 'w',
      status: 'ACTIVE',
      concurrency: 1,
      agentQuota: 1,
      features: [],
      trialUntil: null,
      activityFrozen: false,
      currency: 'USD',
      apiKeyId: '3f6c2a9e-8b1d-4c57-9a0e-2d4b6f8a1c3f',
      scopes: [],
    };
    for (let round = 1; round <= 2; round++) {
      expect(answer(200, workspace)).toSatisfyApiSpec();
      expect(() => expect(answer(200, { ...workspace, trialUntil: 5 })).toSatisfyApiSpec()).toThrow(/trialUntil must be string,null/);
      expect(() => expect(answer(200, { ...workspace, name: null })).toSatisfyApiSpec()).toThrow(/name must be string/);
    }
  });

  it('fails a status the operation does not document', () => {
    expect(() => expect(answer(404, { error: 'not_found', message: 'x' })).toSatisfyApiSpec()).toThrow(/404/);
  });
});
