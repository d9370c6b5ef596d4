import type { DncEntry } from '../domain/dnc-entry';

export abstract class DncRepository {
  /** Inserts unless the number is already listed; returns the entry that is on the list. */
  abstract add(entry: DncEntry): Promise<{ entry: DncEntry; created: boolean }>;
  abstract list(workspaceId: string, offset: number, limit: number): Promise<{ items: DncEntry[]; total: number }>;
  abstract removeById(workspaceId: string, id: string): Promise<boolean>;
  abstract removeByPhone(workspaceId: string, phone: string): Promise<boolean>;
  /** The subset of `phones` on the workspace's list. */
  abstract listed(workspaceId: string, phones: string[]): Promise<string[]>;
}
