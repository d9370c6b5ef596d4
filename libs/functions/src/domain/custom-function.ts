export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const DEFAULT_TIMEOUT_MS = 10000;

/** What a client sets on a custom function. Header values are secrets. */
export interface FunctionSettings {
  name: string;
  description: string;
  /** A JSON Schema (type object) describing the arguments the agent passes. */
  parameters: Record<string, unknown>;
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

export interface CustomFunctionProps extends Omit<FunctionSettings, 'headers'> {
  id: string;
  workspaceId: string;
  headerNames: string[];
  /** Plain header values while they are being set; null when loaded (they stay encrypted at rest). */
  headers: Record<string, string> | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewFunctionInput = Omit<FunctionSettings, 'headers' | 'timeoutMs'> & Partial<Pick<FunctionSettings, 'headers' | 'timeoutMs'>>;

/**
 * A custom function an agent may call during a conversation: an HTTP request the service makes
 * with the arguments the agent fills in. Header values are write-only.
 */
export class CustomFunction {
  private constructor(private props: CustomFunctionProps) {}

  static create(input: { id: string; workspaceId: string; fields: NewFunctionInput; now: Date }): CustomFunction {
    const headers = { ...(input.fields.headers ?? {}) };
    return new CustomFunction({
      id: input.id,
      workspaceId: input.workspaceId,
      name: input.fields.name,
      description: input.fields.description,
      parameters: input.fields.parameters,
      method: input.fields.method,
      url: input.fields.url,
      timeoutMs: input.fields.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      headerNames: Object.keys(headers),
      headers,
      createdAt: input.now,
      updatedAt: input.now,
    });
  }

  static restore(props: CustomFunctionProps): CustomFunction {
    return new CustomFunction({ ...props });
  }

  get id(): string {
    return this.props.id;
  }

  get name(): string {
    return this.props.name;
  }

  /** Partial update; `headers` replaces the whole set (values are never read back, so no merge). */
  update(changes: Partial<FunctionSettings>, now: Date): void {
    const defined = Object.entries(changes).filter(([, v]) => v !== undefined);
    const { headers, ...rest } = Object.fromEntries(defined) as Partial<FunctionSettings>;
    this.props = { ...this.props, ...rest, updatedAt: now };
    if (headers) {
      this.props.headers = { ...headers };
      this.props.headerNames = Object.keys(headers);
    } else {
      this.props.headers = null;
    }
  }

  toProps(): CustomFunctionProps {
    return { ...this.props };
  }
}
