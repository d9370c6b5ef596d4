/** The parts of an OpenAPI 3.0 document the refinement touches (loosely typed on purpose). */
export interface SchemaObject {
  type?: string;
  format?: string;
  nullable?: boolean;
  enum?: unknown[];
  items?: SchemaObject;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean | SchemaObject;
  allOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  pattern?: string;
  example?: unknown;
  default?: unknown;
  description?: string;
  $ref?: string;
  [key: string]: unknown;
}

export interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: SchemaObject;
  [key: string]: unknown;
}

export interface MediaTypeObject {
  schema?: SchemaObject;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaTypeObject>;
}

export interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Record<string, MediaTypeObject>; [key: string]: unknown };
  responses: Record<string, ResponseObject>;
  security?: unknown[];
  [key: string]: unknown;
}

export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  servers?: Array<{ url: string; description?: string }>;
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, SchemaObject>; securitySchemes?: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
}
