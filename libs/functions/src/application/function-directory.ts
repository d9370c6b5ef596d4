import { Injectable } from '@nestjs/common';
import { FunctionRepository } from './function.ports';

/** What other modules (agents' abilities) ask about custom functions. */
@Injectable()
export class FunctionDirectory {
  constructor(private readonly functions: FunctionRepository) {}

  /** The subset of `ids` naming functions of this workspace (malformed and foreign ids are absent). */
  async existing(workspaceId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    return this.functions.existingIds(workspaceId, ids);
  }
}
