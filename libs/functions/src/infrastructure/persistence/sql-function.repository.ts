import { Injectable } from '@nestjs/common';
import { isUniqueViolation, isUuid, TransactionHost } from '@outreach/platform';
import { AppError } from '@outreach/core';
import { CustomFunction, CustomFunctionProps } from '../../domain/custom-function';
import { FunctionRepository, SecretCipher } from '../../application/function.ports';
import {
  CUSTOM_FUNCTION_PUBLIC_COLUMNS,
  CUSTOM_FUNCTIONS,
  CUSTOM_FUNCTIONS_NAME_INDEX,
  CustomFunctionRecord,
} from './custom-function.table';

const F = CUSTOM_FUNCTIONS.c;
const SELECT_PUBLIC = `SELECT ${CUSTOM_FUNCTIONS.select(undefined, CUSTOM_FUNCTION_PUBLIC_COLUMNS)} FROM ${CUSTOM_FUNCTIONS.name}`;
/** What an update writes when the aggregate carries no new header values: all but the key and the sealed headers. */
const WITHOUT_HEADERS = CUSTOM_FUNCTION_PUBLIC_COLUMNS.filter((key) => key !== 'id');

type Row = Record<string, unknown>;

@Injectable()
export class SqlFunctionRepository extends FunctionRepository {
  constructor(
    private readonly tx: TransactionHost,
    private readonly cipher: SecretCipher,
  ) {
    super();
  }

  async insert(fn: CustomFunction): Promise<void> {
    const { sql, params } = CUSTOM_FUNCTIONS.insert(this.toRecord(fn.toProps()));
    await this.write(fn, sql, params);
  }

  async update(fn: CustomFunction): Promise<void> {
    const props = fn.toProps();
    const { sql, params } = CUSTOM_FUNCTIONS.update(this.toRecord(props), ['id'], props.headers === null ? WITHOUT_HEADERS : undefined);
    await this.write(fn, sql, params);
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const [, count]: [unknown[], number] = await this.tx.manager.query(
      `DELETE FROM ${CUSTOM_FUNCTIONS.name} WHERE ${F.id} = $1 AND ${F.workspaceId} = $2`,
      [id, workspaceId],
    );
    return count > 0;
  }

  async findById(workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<CustomFunction | null> {
    if (!isUuid(id) || !isUuid(workspaceId)) return null;
    const forUpdate = options.lock && this.tx.inTransaction ? ' FOR UPDATE' : '';
    const [row]: Row[] = await this.tx.manager.query(`${SELECT_PUBLIC} WHERE ${F.id} = $1 AND ${F.workspaceId} = $2${forUpdate}`, [
      id,
      workspaceId,
    ]);
    return row ? toDomain(row) : null;
  }

  async listByWorkspace(workspaceId: string): Promise<CustomFunction[]> {
    const rows: Row[] = await this.tx.manager.query(`${SELECT_PUBLIC} WHERE ${F.workspaceId} = $1 ORDER BY ${F.createdAt}, ${F.id}`, [
      workspaceId,
    ]);
    return rows.map(toDomain);
  }

  async existingIds(workspaceId: string, ids: string[]): Promise<Set<string>> {
    const candidates = ids.filter(isUuid);
    if (candidates.length === 0) return new Set();
    const rows: Array<{ id: string }> = await this.tx.manager.query(
      `SELECT ${F.id} AS id FROM ${CUSTOM_FUNCTIONS.name} WHERE ${F.workspaceId} = $1 AND ${F.id} = ANY($2::uuid[])`,
      [workspaceId, candidates],
    );
    // Answer in the caller's spelling of each id (uuids are case-insensitive).
    const found = new Set(rows.map((r) => r.id.toLowerCase()));
    return new Set(candidates.filter((id) => found.has(id.toLowerCase())));
  }

  async revealHeaders(workspaceId: string, id: string): Promise<Record<string, string> | null> {
    if (!isUuid(id) || !isUuid(workspaceId)) return null;
    const [row]: Row[] = await this.tx.manager.query(
      `SELECT ${CUSTOM_FUNCTIONS.select(undefined, ['headersSealed'])} FROM ${CUSTOM_FUNCTIONS.name} WHERE ${F.id} = $1 AND ${F.workspaceId} = $2`,
      [id, workspaceId],
    );
    if (!row) return null;
    const { headersSealed } = CUSTOM_FUNCTIONS.fromRow(row, ['headersSealed']);
    if (!headersSealed) return {};
    return JSON.parse(this.cipher.decrypt(headersSealed, sealContext(workspaceId, id))) as Record<string, string>;
  }

  private toRecord(props: CustomFunctionProps): CustomFunctionRecord {
    const { headers, ...rest } = props;
    const headersSealed =
      headers && Object.keys(headers).length > 0 ? this.cipher.encrypt(JSON.stringify(headers), sealContext(props.workspaceId, props.id)) : null;
    return { ...rest, headersSealed };
  }

  private async write(fn: CustomFunction, sql: string, params: unknown[]): Promise<void> {
    try {
      await this.tx.manager.query(sql, params);
    } catch (error) {
      if (isUniqueViolation(error, CUSTOM_FUNCTIONS_NAME_INDEX)) {
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

/** Header values stay sealed at rest: a loaded function carries none. */
function toDomain(row: Row): CustomFunction {
  return CustomFunction.restore({ ...CUSTOM_FUNCTIONS.fromRow(row, CUSTOM_FUNCTION_PUBLIC_COLUMNS), headers: null });
}
