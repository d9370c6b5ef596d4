import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { UnitOfWork } from '@outreach/core';

/**
 * The current transaction, carried by AsyncLocalStorage: repositories ask for `manager` and get
 * the transaction's EntityManager inside `run`, the pool's outside it.
 */
@Injectable()
export class TransactionHost extends UnitOfWork {
  private readonly storage = new AsyncLocalStorage<{ manager: EntityManager; committed: Array<() => void> }>();

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  get manager(): EntityManager {
    return this.storage.getStore()?.manager ?? this.dataSource.manager;
  }

  get inTransaction(): boolean {
    return this.storage.getStore() !== undefined;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.storage.getStore()) return work();
    const committed: Array<() => void> = [];
    const result = await this.dataSource.transaction((manager) => this.storage.run({ manager, committed }, work));
    for (const then of committed) then();
    return result;
  }

  /**
   * Runs `then` once the current transaction has committed (at once outside one); never after a
   * rollback. For announcements other processes act on, e.g. AccessChanges.
   */
  afterCommit(then: () => void): void {
    const store = this.storage.getStore();
    if (store) store.committed.push(then);
    else then();
  }
}
