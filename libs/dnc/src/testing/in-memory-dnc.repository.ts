import { DncRepository } from '../application/dnc.ports';
import { DncEntry } from '../domain/dnc-entry';

/** Do-not-call entries in memory: one entry per (workspace, phone), newest first in lists. */
export class InMemoryDncRepository extends DncRepository {
  readonly entries: DncEntry[] = [];

  async add(entry: DncEntry): Promise<{ entry: DncEntry; created: boolean }> {
    const known = this.entries.find((e) => e.workspaceId === entry.workspaceId && e.phone === entry.phone);
    if (known) return { entry: { ...known }, created: false };
    this.entries.push({ ...entry });
    return { entry: { ...entry }, created: true };
  }

  async list(workspaceId: string, offset: number, limit: number): Promise<{ items: DncEntry[]; total: number }> {
    const all = this.entries.filter((e) => e.workspaceId === workspaceId).reverse();
    return { items: all.slice(offset, offset + limit).map((e) => ({ ...e })), total: all.length };
  }

  async removeById(workspaceId: string, id: string): Promise<boolean> {
    return this.removeWhere((e) => e.workspaceId === workspaceId && e.id === id);
  }

  async removeByPhone(workspaceId: string, phone: string): Promise<boolean> {
    return this.removeWhere((e) => e.workspaceId === workspaceId && e.phone === phone);
  }

  async listed(workspaceId: string, phones: string[]): Promise<string[]> {
    return this.entries.filter((e) => e.workspaceId === workspaceId && phones.includes(e.phone)).map((e) => e.phone);
  }

  /** The workspace's listed phones. */
  phones(workspaceId: string): string[] {
    return this.entries.filter((e) => e.workspaceId === workspaceId).map((e) => e.phone);
  }

  private removeWhere(match: (e: DncEntry) => boolean): boolean {
    const index = this.entries.findIndex(match);
    if (index < 0) return false;
    this.entries.splice(index, 1);
    return true;
  }
}
