// The response validators jest-openapi uses, built on one ajv per document instead of one per
// answer (see reuseResponseValidators below). Test support only.
import type { default as AjvClass, ErrorObject, ValidateFunction } from 'ajv';

type Schema = Record<string, unknown>;
type Args = { responses: Record<string, Schema | undefined>; components?: Schema; errorTransformer?: unknown };
type ValidatorModule = { default: new (args: Args) => object };

/** The id the document's components are registered under in the shared ajv. */
const COMPONENTS_ID = 'openapi-components.json';

/**
 * jest-openapi builds a new openapi-response-validator for every answer it checks, and each one
 * copies the document's components, rewrites them for OpenAPI 3 (`nullable`, write-only fields)
 * and compiles them (ajv) again: about 36 ms per answer, 69 s of the fuzz test's 120 s. Here the
 * components are rewritten and registered once per document in one ajv; a response's schema
 * refers to them there, so each documented response (one status of one operation) compiles only
 * its own schema, once, and its validator is kept. The rewriting, the ajv options and the
 * validateResponse the check calls are openapi-response-validator's own (version 9.3); only the
 * place the components live changes. A call this does not cover (several responses, an error
 * transformer, no components) goes to the original class.
 */
export function reuseResponseValidators(): void {
  // The instances openapi-validator itself loads (a require: the module must be the same object).
  const validatorPath = require.resolve('openapi-response-validator', { paths: [require.resolve('openapi-validator')] });
  const validatorModule = require(validatorPath) as ValidatorModule;
  const Ajv = (require(require.resolve('ajv', { paths: [validatorPath] })) as { default: typeof AjvClass }).default;
  const Build = validatorModule.default;

  const ajvs = new WeakMap<Schema, AjvClass>();
  const ajvFor = (components: Schema): AjvClass => {
    let ajv = ajvs.get(components);
    if (!ajv) {
      ajv = new Ajv({ useDefaults: true, allErrors: true, strict: false, logger: false });
      ajv.addSchema(openApi3ToJsonSchema({ components }), COMPONENTS_ID);
      ajvs.set(components, ajv);
    }
    return ajv;
  };

  const built = new WeakMap<Schema, Map<string, { components: Schema; validator: object }>>();
  function SharedResponseValidator(args: Args): object {
    const entries = Object.entries(args.responses);
    if (entries.length !== 1 || args.errorTransformer !== undefined || !args.components || !entries[0][1]) return new Build(args);
    const [[status, response]] = entries as Array<[string, Schema]>;
    const byStatus = built.get(response) ?? new Map<string, { components: Schema; validator: object }>();
    built.set(response, byStatus);
    const kept = byStatus.get(status);
    if (kept && kept.components === args.components) return kept.validator;
    const schema = {
      $schema: 'http://json-schema.org/schema#',
      type: 'object',
      properties: { response: refersToShared(openApi3ToJsonSchema(responseSchema(response))) },
    };
    const validator = Object.create(Build.prototype) as { validators: Record<string, ValidateFunction>; errorMapper: (e: ErrorObject) => object };
    validator.validators = { [status]: ajvFor(args.components).compile(schema) };
    validator.errorMapper = toValidationError;
    byStatus.set(status, { components: args.components, validator });
    return validator;
  }
  validatorModule.default = SharedResponseValidator as unknown as typeof Build;
}

/** openapi-response-validator's choice of schema: `schema`, else the first media type's, else null. */
function responseSchema(response: Schema): Schema {
  if (typeof response.schema === 'object' && response.schema) return response.schema as Schema;
  const content = response.content as Record<string, Schema> | undefined;
  const first = content && typeof content === 'object' ? content[Object.keys(content)[0]] : undefined;
  return first && typeof first === 'object' && typeof first.schema === 'object' && first.schema ? (first.schema as Schema) : { type: 'null' };
}

/** A response schema's `#/components/…` references, pointed at the shared components. */
function refersToShared(schema: Schema): Schema {
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const object = node as Schema;
      if (typeof object.$ref === 'string' && object.$ref.startsWith('#/components/')) object.$ref = `${COMPONENTS_ID}${object.$ref}`;
      Object.values(object).forEach(walk);
    }
  };
  walk(schema);
  return schema;
}

/** openapi-response-validator's error shape (toOpenapiValidationError). */
function toValidationError(error: ErrorObject): { path: string; errorCode: string; message: string | undefined } {
  return {
    path: `instance${error.instancePath}`.replace(/^instance\/(response\/)?/, ''),
    errorCode: `${error.keyword}.openapi.responseValidation`,
    message: error.message,
  };
}

/** openapi-response-validator's rewriting of OpenAPI 3 into JSON Schema, on a copy. */
function openApi3ToJsonSchema(schema: Schema): Schema {
  const copy = JSON.parse(JSON.stringify(schema)) as Schema;
  rewrite(copy);
  return copy;
}

function rewrite(object: Schema): void {
  if (object.nullable === true) {
    if (object.enum) {
      object.oneOf = [{ type: 'null' }, { type: object.type, enum: object.enum }];
      delete object.type;
      delete object.enum;
    } else if (object.type) {
      object.type = [object.type, 'null'];
    } else if (object.allOf) {
      object.anyOf = [{ allOf: object.allOf }, { type: 'null' }];
      delete object.allOf;
    } else if (object.oneOf || object.anyOf) {
      ((object.oneOf ?? object.anyOf) as unknown[]).push({ type: 'null' });
    }
    delete object.nullable;
  }
  const properties = object.properties as Record<string, Schema> | undefined;
  if (properties && Array.isArray(object.required)) {
    const required = object.required as string[];
    for (const key of Object.keys(properties).filter((k) => properties[k].writeOnly)) required.splice(required.indexOf(key), 1);
  }
  for (const value of Object.values(object)) {
    if (Array.isArray(value)) value.forEach((item) => item && typeof item === 'object' && rewrite(item as Schema));
    else if (value && typeof value === 'object') rewrite(value as Schema);
  }
}
