import { IsOptional, registerDecorator, ValidateIf, ValidationOptions } from 'class-validator';
import { isKnownCallingCode } from '@outreach/core';

/** The member may be absent; when present it must pass the other decorators (null is refused). */
export const Optional = () => ValidateIf((_object, value) => value !== undefined);

/** The member may be absent or null (null clears it); otherwise it must pass the other decorators. */
export const Nullable = () => IsOptional();

/** An IANA time zone name such as Europe/Paris or Asia/Kolkata. */
export function IsTimeZone(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isTimeZone',
      target: object.constructor,
      propertyName,
      options: { message: `${propertyName} must be an IANA time zone such as Europe/Paris`, ...options },
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isTimeZone(value),
      },
    });
}

export function isTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** A flat object whose values are strings (at most `maxKeys` members, keys 1-100 characters). */
export function IsStringRecord(maxKeys: number, maxValueLength: number, options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isStringRecord',
      target: object.constructor,
      propertyName,
      options: {
        message: `${propertyName} must be an object of at most ${maxKeys} string members (values up to ${maxValueLength} characters)`,
        ...options,
      },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).length <= maxKeys &&
          Object.entries(value).every(
            ([k, v]) => k.length >= 1 && k.length <= 100 && typeof v === 'string' && v.length <= maxValueLength,
          ),
      },
    });
}

/**
 * `whatsappTemplateByMetric` (decisions.md 33.6, 33.17): `{ "<metric key>": { "<value>": "<template id>" } }`,
 * at most 20 metrics of at most 50 values each; keys 1-100 characters, template ids 1-100.
 */
export function IsTemplateByMetric(options?: ValidationOptions) {
  const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isTemplateByMetric',
      target: object.constructor,
      propertyName,
      options: {
        message: `${propertyName} must be null or {"<metric key>": {"<value>": "<template id>"}}: at most 20 metrics of at most 50 values, keys and template ids 1-100 characters`,
        ...options,
      },
      validator: {
        validate: (value: unknown) =>
          isRecord(value) &&
          Object.keys(value).length <= 20 &&
          Object.entries(value).every(
            ([metric, byValue]) =>
              metric.length >= 1 &&
              metric.length <= 100 &&
              isRecord(byValue) &&
              Object.keys(byValue).length >= 1 &&
              Object.keys(byValue).length <= 50 &&
              Object.entries(byValue).every(([v, id]) => v.length >= 1 && v.length <= 100 && typeof id === 'string' && id.length >= 1 && id.length <= 100),
          ),
      },
    });
}

/** A calling code in use, such as +1 or +91 (the pattern alone lets +999 through). */
export function IsCallingCode(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isCallingCode',
      target: object.constructor,
      propertyName,
      options: { message: `${propertyName} must be a calling code in use, e.g. +1 or +91`, ...options },
      validator: { validate: (value: unknown) => typeof value === 'string' && isKnownCallingCode(value) },
    });
}

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** `recipientHours`: "off", or exactly {start, end} as HH:MM with start before end (decisions.md 28.1). */
export function IsRecipientHours(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isRecipientHours',
      target: object.constructor,
      propertyName,
      options: { message: `${propertyName} must be "off" or {start, end} as HH:MM (00:00-23:59) with start before end`, ...options },
      validator: { validate: (value: unknown) => isRecipientHours(value) },
    });
}

export function isRecipientHours(value: unknown): boolean {
  if (value === 'off') return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value).sort();
  if (keys.length !== 2 || keys[0] !== 'end' || keys[1] !== 'start') return false;
  const { start, end } = value as Record<string, unknown>;
  return typeof start === 'string' && typeof end === 'string' && HH_MM.test(start) && HH_MM.test(end) && start < end;
}
