import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, Clock, UnitOfWork } from '@outreach/core';
import { CustomFunction, CustomFunctionProps, FunctionSettings, HttpMethod, NewFunctionInput } from '../domain/custom-function';
import { FunctionRepository } from './function.ports';

/** A custom function as the API shows it: header names only, never their values. */
export interface FunctionView {
  id: string;
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  method: HttpMethod;
  url: string;
  headerNames: string[];
  timeoutMs: number;
  createdAt: string;
  updatedAt: string;
}

export function functionView(fn: CustomFunction): FunctionView {
  const p: CustomFunctionProps = fn.toProps();
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    parameters: p.parameters,
    method: p.method,
    url: p.url,
    headerNames: p.headerNames,
    timeoutMs: p.timeoutMs,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** Everything needed to make the call, secrets included: for the call runtime only. */
export interface ExecutableFunction extends Omit<FunctionView, 'headerNames' | 'createdAt' | 'updatedAt'> {
  headers: Record<string, string>;
}

const notFound = (id: string) => new AppError('function_not_found', { message: `no custom function ${id}` });

/** CRUD of the workspace's custom functions (/functions). Unknown or foreign ids → 404 function_not_found. */
@Injectable()
export class CustomFunctions {
  constructor(
    private readonly functions: FunctionRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async create(workspaceId: string, fields: NewFunctionInput): Promise<FunctionView> {
    const fn = CustomFunction.create({ id: randomUUID(), workspaceId, fields, now: this.clock.now() });
    await this.functions.insert(fn);
    return functionView(fn);
  }

  async list(workspaceId: string): Promise<FunctionView[]> {
    return (await this.functions.listByWorkspace(workspaceId)).map(functionView);
  }

  async get(workspaceId: string, id: string): Promise<FunctionView> {
    const fn = await this.functions.findById(workspaceId, id);
    if (!fn) throw notFound(id);
    return functionView(fn);
  }

  async update(workspaceId: string, id: string, changes: Partial<FunctionSettings>): Promise<FunctionView> {
    if (Object.values(changes).every((v) => v === undefined)) {
      throw new AppError('no_fields_to_update', { message: 'send at least one function field' });
    }
    return this.uow.run(async () => {
      const fn = await this.functions.findById(workspaceId, id, { lock: true });
      if (!fn) throw notFound(id);
      fn.update(changes, this.clock.now());
      await this.functions.update(fn);
      return functionView(fn);
    });
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    if (!(await this.functions.delete(workspaceId, id))) throw notFound(id);
  }

  async executable(workspaceId: string, id: string): Promise<ExecutableFunction> {
    const fn = await this.functions.findById(workspaceId, id);
    if (!fn) throw notFound(id);
    const { headerNames: _n, createdAt: _c, updatedAt: _u, ...view } = functionView(fn);
    return { ...view, headers: (await this.functions.revealHeaders(workspaceId, id)) ?? {} };
  }
}
