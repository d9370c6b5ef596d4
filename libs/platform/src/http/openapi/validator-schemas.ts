import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { SchemaObject } from './openapi-types';

type Cls = Function;

/** Every class that carries class-validator rules (the request DTOs), by name; two of one name fail. */
export function validatedClassesByName(): Map<string, Cls> {
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<Cls, ValidationMetadata[]> };
  const byName = new Map<string, Cls>();
  const clashes = new Set<string>();
  for (const cls of storage.validationMetadatas.keys()) {
    const seen = byName.get(cls.name);
    if (seen && seen !== cls) clashes.add(cls.name);
    byName.set(cls.name, cls);
  }
  for (const name of clashes) byName.delete(name);
  // A schema is named after its class: two request DTOs of one name would share (and corrupt) one schema.
  if (clashes.size > 0) throw new Error(`request DTO classes sharing a name (rename one, or @ApiSchema): ${[...clashes].join(', ')}`);
  return byName;
}

/** The class-validator rules of each member of a class (inherited ones included). */
export function memberRules(cls: Cls): Map<string, ValidationMetadata[]> {
  const rules = new Map<string, ValidationMetadata[]>();
  for (const m of getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false)) {
    rules.set(m.propertyName, [...(rules.get(m.propertyName) ?? []), m]);
  }
  return rules;
}

/** `@IsOptional()` lets null through (the DTOs' own `Optional()`, a ValidateIf, does not). */
export const acceptsNull = (rules: ValidationMetadata[]) => rules.some((r) => r.name === 'isOptional');

/**
 * Makes a member's schema say what its validators enforce, so the document cannot be looser than
 * the service: whole numbers are `integer`, a minimum length is `minLength`, UUIDs and URLs carry
 * their format. Returns the (possibly replaced) schema.
 */
export function tightenMember(schema: SchemaObject, rules: ValidationMetadata[], where: 'body' | 'query'): SchemaObject {
  for (const rule of rules) {
    const target = rule.each && schema.type === 'array' && schema.items && !('$ref' in schema.items) ? (schema.items as SchemaObject) : schema;
    switch (rule.name) {
      case 'isInt':
        if (target.type === 'number' || target.type === undefined) target.type = 'integer';
        break;
      case 'isUuid':
        target.format ??= 'uuid';
        break;
      case 'isUrl':
        target.format ??= 'uri';
        break;
      case 'isNotEmpty':
        if (target.type === 'string') target.minLength = Math.max(target.minLength ?? 0, 1);
        break;
      case 'minLength':
      case 'isLength': {
        const min = Number(rule.constraints?.[0] ?? 0);
        if (target.type === 'string' && min > (target.minLength ?? 0)) target.minLength = min;
        const max = rule.name === 'isLength' ? rule.constraints?.[1] : undefined;
        if (target.type === 'string' && typeof max === 'number' && target.maxLength === undefined) target.maxLength = max;
        break;
      }
    }
  }
  if (where === 'body' && acceptsNull(rules) && !schema.nullable) return nullable(schema);
  return schema;
}

/** A null, in OpenAPI 3.0 terms (3.0.3: `nullable` needs a `type`, and null must be in the enum). */
const NULL_ONLY: SchemaObject = { type: 'object', nullable: true, enum: [null] };

/**
 * The schema that also admits null. In OpenAPI 3.0 `nullable` beside an `allOf: [$ref]` does not
 * reach the referenced schema (validators refuse null), so a nullable reference is
 * `anyOf: [$ref, null]`.
 */
export function nullable(schema: SchemaObject): SchemaObject {
  if (schema.$ref) return { anyOf: [schema, NULL_ONLY] };
  return { ...schema, nullable: true };
}

/** Rewrites every `{ nullable, allOf: [$ref] }` (how @ApiProperty renders a nullable class) with `nullable()`. */
export function fixNullableReferences(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(fixNullableReferences);
  if (node === null || typeof node !== 'object') return node;
  const schema = node as SchemaObject;
  if (schema.nullable === true && schema.allOf?.length === 1 && schema.allOf[0].$ref && !schema.properties) {
    const { nullable: _n, allOf, type: _t, ...rest } = schema;
    return { ...rest, ...nullable(allOf[0]) };
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, fixNullableReferences(v)]));
}
