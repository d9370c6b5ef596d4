import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { UnitOfWork } from '@outreach/core';
import { PoolEntityManager } from './pool-entity-manager';

/**
 * The current transaction, carried by AsyncLocalStorage: repositories ask for `manager` and get
 * the transaction's EntityManager inside `run`, the pool's outside it (PoolEntityManager, whose
 * statements go to the pool without a TypeORM query runner each).
 */
@Injectable()
export class TransactionHost extends UnitOfWork {
  private readonly storage = new AsyncLocalStorage<{ manager: EntityManager; committed: Array<() => void> }>();

  private outside: { pool: Pool; manager: EntityManager } | undefined;

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  get manager(): EntityManager {
    return this.storage.getStore()?.manager ?? this.pooled();
  }

  /** The manager outside a transaction, for the driver's current pool (none before the data source connects). */
  private pooled(): EntityManager {
    const pool = (this.dataSource.driver as unknown as { master?: Pool }).master;
    if (!pool) return this.dataSource.manager;
    if (this.outside?.pool !== pool) this.outside = { pool, manager: new PoolEntityManager(this.dataSource, pool) };
    return this.outside.manager;
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
