import { ApiProperty } from '@nestjs/swagger';
import Ajv from 'ajv';
import {
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateIf,
  ValidationOptions,
} from 'class-validator';
import { HTTP_METHODS } from '../domain/custom-function';

/** Optional but never null: absent is fine, `null` is refused. */
const Optional = () => ValidateIf((_: unknown, value: unknown) => value !== undefined);

export const FUNCTION_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
export const MAX_HEADERS = 20;
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,100}$/;
const HEADER_VALUE_MAX = 4096;

let schemaChecker: Ajv | undefined;
/** Built on first use, not when the module loads (its meta-schemas are compiled then). */
const ajv = (): Ajv => (schemaChecker ??= new Ajv({ strict: false }));

/** Why a value is not a usable JSON Schema for function parameters, or null when it is. */
export function jsonSchemaProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'parameters must be a JSON Schema object';
  try {
    const checker = ajv();
    if (!checker.validateSchema(value)) return `not a valid JSON Schema: ${checker.errorsText(checker.errors, { dataVar: 'parameters' })}`;
  } catch (error) {
    return `not a valid JSON Schema: ${(error as Error).message}`;
  }
  if ((value as { type?: unknown }).type !== 'object') return 'parameters must describe an object ("type": "object")';
  return null;
}

/** Why a value is not a header map (≤ 20 names, token names, single-line string values), or null. */
export function headerMapProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'headers must be an object of name → value';
  const entries = Object.entries(value);
  if (entries.length > MAX_HEADERS) return `headers may hold at most ${MAX_HEADERS} entries`;
  const seen = new Set<string>();
  for (const [name, v] of entries) {
    if (!HEADER_NAME.test(name)) return `header name ${JSON.stringify(name)} is not a valid HTTP header name`;
    if (seen.has(name.toLowerCase())) return `header ${JSON.stringify(name)} appears twice`;
    seen.add(name.toLowerCase());
    if (typeof v !== 'string') return `header ${name} must be a string`;
    if (v.length > HEADER_VALUE_MAX || /[\r\n\0]/.test(v)) return `header ${name} must be one line of at most ${HEADER_VALUE_MAX} characters`;
  }
  return null;
}

function Satisfies(problem: (value: unknown) => string | null, name: string, options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => problem(value) === null,
        defaultMessage: (args) => problem(args?.value) ?? `${propertyName} is invalid`,
      },
    });
}

/** The members of a custom function with their bounds; presence is declared per request below. */
class FunctionFieldsDto {
  @ApiProperty({ required: false, minLength: 1, maxLength: 64, pattern: FUNCTION_NAME_PATTERN.source, example: 'check_availability' })
  @IsString() @Length(1, 64) @Matches(FUNCTION_NAME_PATTERN, { message: 'name must match ^[a-zA-Z_][a-zA-Z0-9_]*$' })
  name?: string;

  @ApiProperty({ required: false, minLength: 1, maxLength: 1000 })
  @IsString() @Length(1, 1000)
  description?: string;

  @ApiProperty({
    required: false,
    type: Object,
    additionalProperties: true,
    description: 'JSON Schema (draft-07) of the arguments; top-level "type": "object"',
    example: { type: 'object', properties: { date: { type: 'string', format: 'date' } }, required: ['date'] },
  })
  @Satisfies(jsonSchemaProblem, 'isJsonSchema')
  parameters?: Record<string, unknown>;

  @ApiProperty({ required: false, enum: HTTP_METHODS })
  @IsIn(HTTP_METHODS)
  method?: (typeof HTTP_METHODS)[number];

  @ApiProperty({ required: false, maxLength: 2048, example: 'https://example.com/hooks/availability' })
  @IsString() @MaxLength(2048)
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false, disallow_auth: true },
    { message: 'url must be an http or https URL without credentials (send those as headers)' },
  )
  url?: string;

  @ApiProperty({
    required: false,
    type: Object,
    additionalProperties: { type: 'string' },
    maxProperties: MAX_HEADERS,
    description: 'Request headers (secret: stored encrypted, never returned; responses list headerNames). Replaces the whole set.',
  })
  @IsObject() @Satisfies(headerMapProblem, 'isHeaderMap')
  headers?: Record<string, string>;

  @ApiProperty({ required: false, minimum: 100, maximum: 30000, default: 10000 })
  @IsInt() @Min(100) @Max(30000)
  timeoutMs?: number;
}

const REQUIRED_ON_CREATE = ['name', 'description', 'parameters', 'method', 'url'] as const;
const OPTIONAL_ALWAYS = ['headers', 'timeoutMs'] as const;

/** PATCH /functions/{id}: every member optional (at least one required), none nullable. */
export class UpdateFunctionDto extends FunctionFieldsDto {}
for (const key of [...REQUIRED_ON_CREATE, ...OPTIONAL_ALWAYS]) Optional()(UpdateFunctionDto.prototype, key);

/** POST /functions. */
export class CreateFunctionDto extends FunctionFieldsDto {
  @ApiProperty({ required: true, minLength: 1, maxLength: 64, pattern: FUNCTION_NAME_PATTERN.source, example: 'check_availability' })
  override name: string;

  @ApiProperty({ required: true, minLength: 1, maxLength: 1000 })
  override description: string;

  @ApiProperty({ required: true, type: Object, additionalProperties: true, description: 'JSON Schema (draft-07) of the arguments; top-level "type": "object"' })
  override parameters: Record<string, unknown>;

  @ApiProperty({ required: true, enum: HTTP_METHODS })
  override method: (typeof HTTP_METHODS)[number];

  @ApiProperty({ required: true, maxLength: 2048, example: 'https://example.com/hooks/availability' })
  override url: string;
}
for (const key of REQUIRED_ON_CREATE) IsDefined()(CreateFunctionDto.prototype, key);
for (const key of OPTIONAL_ALWAYS) Optional()(CreateFunctionDto.prototype, key);

export class FunctionResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: Object, additionalProperties: true }) parameters: Record<string, unknown>;
  @ApiProperty({ enum: HTTP_METHODS }) method: string;
  @ApiProperty() url: string;
  @ApiProperty({ type: [String], description: 'Names of the stored headers; values are never returned' }) headerNames: string[];
  @ApiProperty({ type: 'integer' }) timeoutMs: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}
