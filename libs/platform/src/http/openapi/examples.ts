import type { SchemaObject } from './openapi-types';

/** Sample strings for the patterns the DTOs use; a pattern missing here needs an `example` on its member. */
const PATTERN_SAMPLES: Record<string, string> = {
  '^\\+\\d{8,15}$': '+14155550123',
  '^[a-zA-Z_][a-zA-Z0-9_]*$': 'budget',
  '^\\d{2}:\\d{2}$': '09:00',
  '^\\+\\d{1,3}$': '+1',
};

const FORMAT_SAMPLES: Record<string, string> = {
  uuid: '3f6c2a9e-8b1d-4c57-9a0e-2d4b6f8a1c3e',
  'date-time': '2026-01-15T09:30:00.000Z',
  date: '2026-01-15',
  uri: 'https://example.com/outreach/results',
  email: 'ada@example.com',
};

/**
 * An example value for a schema: the member's own `example` when it has one, else one built from
 * the schema (first enum value, default, format, pattern, bounds). `full` includes optional members
 * (responses); otherwise only required members and those with an example (request bodies, which
 * then stay minimal and valid). The regression test validates every example against its schema.
 */
export function sampleOf(schema: SchemaObject | undefined, schemas: Record<string, SchemaObject>, full: boolean, depth = 0): unknown {
  if (!schema || depth > 40) return undefined;
  if (schema.$ref) return sampleOf(schemas[schema.$ref.replace('#/components/schemas/', '')], schemas, full, depth + 1);
  if (schema.example !== undefined) return schema.example;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.allOf) {
    const parts = schema.allOf.map((s) => sampleOf(s, schemas, full, depth + 1));
    if (parts.every((p) => p !== null && typeof p === 'object' && !Array.isArray(p))) return Object.assign({}, ...parts);
    return parts[0];
  }
  const alternative = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (alternative) return sampleOf(alternative, schemas, full, depth + 1);
  switch (schema.type) {
    case 'object':
    case undefined: {
      if (!schema.properties) return schema.type === 'object' ? {} : null;
      const out: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(schema.properties)) {
        const wanted = full || schema.required?.includes(name) || member.example !== undefined;
        if (!wanted) continue;
        const value = sampleOf(member, schemas, full, depth + 1);
        if (value !== undefined) out[name] = value;
      }
      // A body that must not be empty (PATCH: minProperties 1) shows its first members.
      for (const [name, member] of Object.entries(schema.properties)) {
        if (Object.keys(out).length >= (schema.minProperties ?? 0)) break;
        const value = sampleOf(member, schemas, full, depth + 1);
        if (value !== undefined && !(name in out)) out[name] = value;
      }
      return out;
    }
    case 'array': {
      const item = sampleOf(schema.items, schemas, full, depth + 1);
      if (item === undefined) return [];
      const count = Math.max(schema.minItems ?? 0, full || (schema.minItems ?? 0) > 0 ? 1 : 0);
      return Array.from({ length: count }, () => item);
    }
    case 'integer':
      return schema.minimum ?? (schema.maximum !== undefined && schema.maximum < 1 ? schema.maximum : 1);
    case 'number':
      return schema.minimum ?? (schema.maximum !== undefined && schema.maximum < 1 ? schema.maximum : 1);
    case 'boolean':
      return true;
    case 'string': {
      if (schema.format === 'binary') return undefined;
      if (schema.format && FORMAT_SAMPLES[schema.format]) return FORMAT_SAMPLES[schema.format];
      if (schema.pattern) return PATTERN_SAMPLES[schema.pattern] ?? 'example';
      let text = 'example';
      if (schema.minLength && text.length < schema.minLength) text = text.padEnd(schema.minLength, 'x');
      if (schema.maxLength !== undefined && text.length > schema.maxLength) text = text.slice(0, schema.maxLength);
      return text;
    }
    default:
      return undefined;
  }
}
