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

/** The schema that also admits null (OpenAPI 3.0: `nullable` beside a `type`, a $ref wrapped in allOf). */
export function nullable(schema: SchemaObject): SchemaObject {
  if ('$ref' in schema) return { type: 'object', nullable: true, allOf: [schema] };
  return { ...schema, nullable: true };
}
