import { AppError, AppValidationPipe, flattenIssues } from '@outreach/platform';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { LeadPushInput } from '../application/push-lead.use-case';
import { readIdempotencyKey } from '../domain/lead';
import { MAX_BATCH_LEADS, PushLeadDto } from './lead.dto';

const notAnObject = (path: string) => new AppError('invalid_body', { status: 422, issues: [{ path, message: 'expected a JSON object' }] });

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The lead push body, in the contract's order: an object (422 invalid_body), the idempotency key
 * (422 idempotency_key_required / 400 idempotency_key_invalid), then the rest of the DTO (422
 * invalid_body, through the global pipe's rules).
 */
export async function parseLeadPush(body: unknown): Promise<LeadPushInput> {
  if (!isObject(body)) throw notAnObject('');
  readIdempotencyKey(body.idempotencyKey);
  const dto = (await new AppValidationPipe().transform(body, { type: 'body', metatype: PushLeadDto })) as PushLeadDto;
  return { idempotencyKey: dto.idempotencyKey, phone: dto.phone, name: dto.name ?? null, fields: dto.fields };
}

/** One item of a batch: the same checks, answered per item (paths prefixed leads.<i>). */
async function parseBatchItem(item: unknown, index: number): Promise<LeadPushInput | AppError> {
  const prefix = `leads.${index}`;
  if (!isObject(item)) return notAnObject(prefix);
  try {
    readIdempotencyKey(item.idempotencyKey);
  } catch (error) {
    return error as AppError;
  }
  const dto = plainToInstance(PushLeadDto, item);
  const errors = await validate(dto, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  if (errors.length > 0) return new AppError('invalid_body', { status: 422, issues: flattenIssues(errors, prefix) });
  return { idempotencyKey: dto.idempotencyKey, phone: dto.phone, name: dto.name ?? null, fields: dto.fields };
}

/** `{ leads: [...] }` with 1-500 items (else 422 invalid_body); each item parsed on its own. */
export async function parseLeadBatch(body: unknown): Promise<Array<LeadPushInput | AppError>> {
  if (!isObject(body)) throw notAnObject('');
  const unknown = Object.keys(body).filter((k) => k !== 'leads');
  if (unknown.length > 0) {
    throw new AppError('invalid_body', { status: 422, issues: unknown.map((path) => ({ path, message: `property ${path} should not exist` })) });
  }
  const leads = body.leads;
  if (!Array.isArray(leads) || leads.length < 1 || leads.length > MAX_BATCH_LEADS) {
    throw new AppError('invalid_body', {
      status: 422,
      issues: [{ path: 'leads', message: `leads must be an array of 1-${MAX_BATCH_LEADS} leads` }],
    });
  }
  return Promise.all(leads.map((item, index) => parseBatchItem(item, index)));
}
