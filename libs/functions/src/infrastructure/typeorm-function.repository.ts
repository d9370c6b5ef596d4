import { Injectable } from '@nestjs/common';
import { isUniqueViolation, isUuid, TransactionHost } from '@outreach/platform';
import { AppError } from '@outreach/core';
import { CustomFunction, CustomFunctionProps, HttpMethod } from '../domain/custom-function';
import { FunctionRepository, SecretCipher } from '../application/function.ports';
import { CustomFunctionEntity } from './custom-function.typeorm-entity';

const NAME_INDEX = 'custom_functions_workspace_name_key';

@Injectable()
export class TypeormFunctionRepository extends FunctionRepository {
  constructor(
    private readonly tx: TransactionHost,
    private readonly cipher: SecretCipher,
  ) {
    super();
  }

  private get repo() {
    return this.tx.manager.getRepository(CustomFunctionEntity);
  }

  async insert(fn: CustomFunction): Promise<void> {
    await this.write(fn, () => this.repo.insert(this.toRow(fn.toProps())));
  }

  async update(fn: CustomFunction): Promise<void> {
    const { id, headersSealed, ...rest } = this.toRow(fn.toProps());
    const props = fn.toProps();
    await this.write(fn, () => this.repo.update({ id }, props.headers === null ? rest : { ...rest, headersSealed }));
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.repo.delete({ id, workspaceId });
    return (result.affected ?? 0) > 0;
  }

  async findById(workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<CustomFunction | null> {
    if (!isUuid(id) || !isUuid(workspaceId)) return null;
    const row = await this.repo.findOne({
      where: { id, workspaceId },
      ...(options.lock && this.tx.inTransaction ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row ? toDomain(row) : null;
  }

  async listByWorkspace(workspaceId: string): Promise<CustomFunction[]> {
    const rows = await this.repo.find({ where: { workspaceId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toDomain);
  }

  async existingIds(workspaceId: string, ids: string[]): Promise<Set<string>> {
    const candidates = ids.filter(isUuid);
    if (candidates.length === 0) return new Set();
    const rows: Array<{ id: string }> = await this.tx.manager.query(
      `SELECT id FROM custom_functions WHERE workspace_id = $1 AND id = ANY($2::uuid[])`,
      [workspaceId, candidates],
    );
    // Answer in the caller's spelling of each id (uuids are case-insensitive).
    const found = new Set(rows.map((r) => r.id.toLowerCase()));
    return new Set(candidates.filter((id) => found.has(id.toLowerCase())));
  }

  async revealHeaders(workspaceId: string, id: string): Promise<Record<string, string> | null> {
    if (!isUuid(id) || !isUuid(workspaceId)) return null;
    const row = await this.repo.findOne({ where: { id, workspaceId }, select: { id: true, workspaceId: true, headersSealed: true } });
    if (!row) return null;
    if (!row.headersSealed) return {};
    return JSON.parse(this.cipher.decrypt(row.headersSealed, sealContext(workspaceId, id))) as Record<string, string>;
  }

  private toRow(props: CustomFunctionProps): CustomFunctionEntity {
    const { headers, ...rest } = props;
    const headersSealed =
      headers && Object.keys(headers).length > 0 ? this.cipher.encrypt(JSON.stringify(headers), sealContext(props.workspaceId, props.id)) : null;
    return { ...rest, headersSealed };
  }

  private async write(fn: CustomFunction, op: () => Promise<unknown>): Promise<void> {
    try {
      await op();
    } catch (error) {
      if (isUniqueViolation(error, NAME_INDEX)) {
        throw new AppError('name_taken', {
          message: `a custom function named ${JSON.stringify(fn.name)} exists in this workspace`,
          issues: [{ path: 'name', message: 'already used by another function of the workspace' }],
        });
      }
      throw error;
    }
  }
}

function sealContext(workspaceId: string, id: string): string {
  return `custom_functions:${workspaceId.toLowerCase()}:${id.toLowerCase()}`;
}

function toDomain(row: CustomFunctionEntity): CustomFunction {
  const { headersSealed: _sealed, ...rest } = row;
  return CustomFunction.restore({
    ...rest,
    parameters: row.parameters as Record<string, unknown>,
    method: row.method as HttpMethod,
    headers: null,
  });
}
