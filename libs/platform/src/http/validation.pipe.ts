import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import { AppError, ValidationIssue } from '../core/app-error';

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
