import { AppError, ValidationIssue } from '@outreach/core';
import { flattenIssues } from '@outreach/platform';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';

/** Validates a JSON-array body item by item (the global pipe takes objects only); paths read `3.phone`. */
export async function validateArrayBody<T extends object>(
  type: new () => T,
  body: unknown,
  bounds: { min: number; max: number },
): Promise<T[]> {
  if (!Array.isArray(body)) throw new AppError('invalid_body', { issues: [{ path: '', message: 'expected a JSON array' }] });
  if (body.length < bounds.min || body.length > bounds.max) {
    throw new AppError('invalid_body', { issues: [{ path: '', message: `expected ${bounds.min}-${bounds.max} items` }] });
  }
  const issues: ValidationIssue[] = [];
  const items: T[] = [];
  for (let i = 0; i < body.length; i++) {
    const raw: unknown = body[i];
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      issues.push({ path: String(i), message: 'expected an object' });
      continue;
    }
    const item = plainToInstance(type, raw);
    const errors = await validate(item, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      validationError: { target: false, value: false },
    });
    issues.push(...flattenIssues(errors, String(i)));
    items.push(item);
    if (issues.length >= 50) break;
  }
  if (issues.length > 0) throw new AppError('invalid_body', { issues });
  return items;
}
