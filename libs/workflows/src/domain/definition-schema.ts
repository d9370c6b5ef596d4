import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import type { ValidationIssue } from '@outreach/core';
import { BRANCH_SUBJECTS, ELSE_PORT, MAX_EDGES, MAX_NODES, NODE_KINDS } from './workflow-definition';

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const ID = '^[A-Za-z0-9_-]{1,64}$';
const NAME = { type: 'string', minLength: 1, maxLength: 64 };
const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', additionalProperties: false, properties, required });

const CONFIG_SCHEMAS: Record<(typeof NODE_KINDS)[number], object> = {
  start: object({}),
  call: object({ agentId: { type: 'string', pattern: UUID } }, ['agentId']),
  whatsapp: object({ templateId: { type: 'string', pattern: UUID }, replyWithinSeconds: { type: 'integer', minimum: 60, maximum: 30 * 86_400 } }, ['templateId']),
  email: object({ templateId: { type: 'string', pattern: UUID }, replyWithinSeconds: { type: 'integer', minimum: 60, maximum: 30 * 86_400 } }, ['templateId']),
  wait: {
    ...object({ seconds: { type: 'integer', minimum: 1, maximum: 90 * 86_400 }, untilLocalTime: { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' } }),
    oneOf: [{ required: ['seconds'] }, { required: ['untilLocalTime'] }],
  },
  branch: {
    ...object(
      {
        on: { enum: [...BRANCH_SUBJECTS] },
        key: { type: 'string', minLength: 1, maxLength: 64 },
        cases: {
          type: 'array',
          minItems: 1,
          maxItems: 20,
          items: object({ name: { ...NAME, pattern: ID, not: { const: ELSE_PORT } }, values: { type: 'array', minItems: 1, maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 200 } } }, ['name', 'values']),
        },
      },
      ['on', 'cases'],
    ),
    // Extraction keys, evaluation metrics and lead fields are named; call outcomes and replies are not.
    if: { properties: { on: { enum: ['extraction', 'evaluation', 'lead_field'] } } },
    then: { required: ['key'] },
  },
  tag: object({ tag: { type: 'string', minLength: 1, maxLength: 64 } }, ['tag']),
  webhook: object({ url: { type: 'string', pattern: '^https?://[^\\s]+$', maxLength: 2048 } }, ['url']),
  end: object({}),
};

/**
 * The JSON Schema of a definition (decisions.md 37.1): shapes and bounds. The graph rules
 * (definition-rules.ts) run only on a definition this schema accepts.
 */
export const WORKFLOW_DEFINITION_SCHEMA = {
  $id: 'https://outreach.example/schemas/workflow-definition.json',
  type: 'object',
  additionalProperties: false,
  required: ['nodes', 'edges'],
  properties: {
    nodes: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_NODES,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'kind', 'config'],
        properties: {
          id: { type: 'string', pattern: ID },
          kind: { enum: [...NODE_KINDS] },
          label: { type: 'string', minLength: 1, maxLength: 120 },
          config: { type: 'object' },
        },
        allOf: NODE_KINDS.map((kind) => ({ if: { properties: { kind: { const: kind } }, required: ['kind'] }, then: { properties: { config: CONFIG_SCHEMAS[kind] } } })),
      },
    },
    edges: {
      type: 'array',
      maxItems: MAX_EDGES,
      items: object({ from: { type: 'string', pattern: ID }, port: NAME, to: { type: 'string', pattern: ID } }, ['from', 'port', 'to']),
    },
  },
} as const;

let compiled: ValidateFunction | undefined;
/** Compiled on first use, not when the module loads: about 60 ms of every process start otherwise. */
const validator = (): ValidateFunction => (compiled ??= new Ajv({ allErrors: true, strict: false }).compile(WORKFLOW_DEFINITION_SCHEMA));

/** `/nodes/0/config/agentId` → `nodes[0].config.agentId`. */
function pathOf(error: ErrorObject): string {
  let path = '';
  for (const part of error.instancePath.split('/').slice(1)) path += /^\d+$/.test(part) ? `[${part}]` : path ? `.${part}` : part;
  const missing = error.keyword === 'required' ? (error.params as { missingProperty: string }).missingProperty : null;
  const extra = error.keyword === 'additionalProperties' ? (error.params as { additionalProperty: string }).additionalProperty : null;
  const member = missing ?? extra;
  return member ? (path ? `${path}.${member}` : member) : path;
}

function messageOf(error: ErrorObject): string {
  if (error.keyword === 'required') return 'is required';
  if (error.keyword === 'additionalProperties') return 'is not allowed';
  if (error.keyword === 'oneOf' && error.instancePath.endsWith('/config')) return 'set exactly one of seconds and untilLocalTime';
  return error.message ?? 'is invalid';
}

/** The schema's complaints, one per path (the first of each), in document order; empty when it fits. */
export function schemaIssues(definition: unknown): ValidationIssue[] {
  const validate = validator();
  if (validate(definition)) return [];
  const issues = new Map<string, ValidationIssue>();
  for (const error of validate.errors ?? []) {
    // if/then wrappers repeat what their inner error already said.
    if (error.keyword === 'if') continue;
    const path = pathOf(error) || '(root)';
    if (!issues.has(path)) issues.set(path, { path, message: messageOf(error) });
  }
  return [...issues.values()];
}
