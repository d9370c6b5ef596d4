// In-memory fakes of the custom-functions module's ports, for use-case specs (no Nest, no
// database). Other modules' specs import this file by relative path; production code never does.
import { AppError } from '@outreach/core';
import { FunctionRepository } from '../application/function.ports';
import { CustomFunction, CustomFunctionProps } from '../domain/custom-function';

/**
 * Custom functions by id, with the port's rules: names unique per workspace in any case
 * (name_taken), header values kept apart (as if sealed) and revealed only by revealHeaders,
 * an update writes header values only when the aggregate carries new ones.
 */
export class InMemoryFunctionRepository extends FunctionRepository {
  /** Stored rows as loaded: `headers` is always null here, like a row read back. */
  readonly rows = new Map<string, CustomFunctionProps>();
  /** Header values by function id: the "sealed" column. */
  readonly sealedHeaders = new Map<string, Record<string, string>>();

  async insert(fn: CustomFunction): Promise<void> {
    const props = fn.toProps();
    this.assertNameFree(props);
    this.rows.set(props.id, { ...props, headers: null });
    this.sealedHeaders.set(props.id, { ...(props.headers ?? {}) });
  }

  async update(fn: CustomFunction): Promise<void> {
    const props = fn.toProps();
    if (!this.rows.has(props.id)) throw new Error(`no custom function ${props.id} to update`);
    this.assertNameFree(props);
    this.rows.set(props.id, { ...props, headers: null });
    if (props.headers !== null) this.sealedHeaders.set(props.id, { ...props.headers });
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    if (this.rows.get(id)?.workspaceId !== workspaceId) return false;
    this.rows.delete(id);
    this.sealedHeaders.delete(id);
    return true;
  }

  async findById(workspaceId: string, id: string): Promise<CustomFunction | null> {
    const props = this.rows.get(id);
    return props && props.workspaceId === workspaceId ? CustomFunction.restore({ ...props }) : null;
  }

  async listByWorkspace(workspaceId: string): Promise<CustomFunction[]> {
    return [...this.rows.values()]
      .filter((p) => p.workspaceId === workspaceId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      .map((p) => CustomFunction.restore({ ...p }));
  }

  async existingIds(workspaceId: string, ids: string[]): Promise<Set<string>> {
    return new Set(ids.filter((id) => this.rows.get(id)?.workspaceId === workspaceId));
  }

  async revealHeaders(workspaceId: string, id: string): Promise<Record<string, string> | null> {
    if (this.rows.get(id)?.workspaceId !== workspaceId) return null;
    return { ...(this.sealedHeaders.get(id) ?? {}) };
  }

  private assertNameFree(props: CustomFunctionProps): void {
    const name = props.name.toLowerCase();
    const clash = [...this.rows.values()].some((p) => p.workspaceId === props.workspaceId && p.id !== props.id && p.name.toLowerCase() === name);
    if (clash) {
      throw new AppError('name_taken', {
        message: `a custom function named ${JSON.stringify(props.name)} exists in this workspace`,
        issues: [{ path: 'name', message: 'already used by another function of the workspace' }],
      });
    }
  }
}

/** Stores a custom function built through the aggregate and returns it (name defaults to its id). */
export async function seedFunction(
  repo: InMemoryFunctionRepository,
  seed: { id: string; workspaceId: string; name?: string; headers?: Record<string, string>; now?: Date },
): Promise<CustomFunction> {
  const fn = CustomFunction.create({
    id: seed.id,
    workspaceId: seed.workspaceId,
    now: seed.now ?? new Date('2026-01-01T00:00:00Z'),
    fields: { name: seed.name ?? seed.id, description: 'test function', parameters: { type: 'object' }, method: 'POST', url: 'https://example.com/hook', headers: seed.headers },
  });
  await repo.insert(fn);
  return fn;
}
