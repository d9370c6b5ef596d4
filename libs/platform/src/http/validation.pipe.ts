import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import { AppError, ValidationIssue } from '@outreach/core';

const INVALID_BODY_STATUS = 'outreach:invalid-body-status';

/**
 * On a body DTO class: answer its validation failures with this status instead of 400 (the lead
 * push answers 422 invalid_body, as the contract says).
 */
export function InvalidBodyStatus(status: 400 | 422): ClassDecorator {
  return (target) => Reflect.defineMetadata(INVALID_BODY_STATUS, status, target);
}

/**
 * Shape and bounds at the edge: bodies that fail their DTO → invalid_body, query strings →
 * invalid_query, both with `issues: [{path, message}]`. Unknown members are refused.
 */
@Injectable()
export class AppValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype, type } = metadata;
    if (type !== 'body' && type !== 'query') return value;
    if (!metatype || isPrimitive(metatype)) return value;
    const code = type === 'body' ? 'invalid_body' : 'invalid_query';
    const status: number | undefined = type === 'body' ? Reflect.getMetadata(INVALID_BODY_STATUS, metatype) : undefined;

    const input = value === undefined || value === null ? {} : value;
    if (typeof input !== 'object' || Array.isArray(input)) {
      throw new AppError(code, { status, issues: [{ path: '', message: 'expected a JSON object' }] });
    }
    const nul = findNulCharacter(input);
    if (nul !== null) {
      throw new AppError(code, { status, issues: [{ path: nul, message: 'text may not contain NUL (\\u0000) characters' }] });
    }
    const instance = plainToInstance(metatype as new () => object, input);
    const errors = await validate(instance, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      validationError: { target: false, value: false },
    });
    if (errors.length > 0) throw new AppError(code, { status, issues: flattenIssues(errors) });
    return instance;
  }
}

function isPrimitive(metatype: Function): boolean {
  return [String, Boolean, Number, Array, Object].includes(metatype as never);
}

export function flattenIssues(errors: ValidationError[], parent = ''): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) {
      for (const message of Object.values(error.constraints)) issues.push({ path, message });
    }
    if (error.children?.length) issues.push(...flattenIssues(error.children, path));
  }
  return issues;
}

/** The path of the first string (or member name) holding U+0000, which PostgreSQL text cannot store. */
function findNulCharacter(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  for (const [key, child] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return childPath;
    const found = findNulCharacter(child, childPath, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
