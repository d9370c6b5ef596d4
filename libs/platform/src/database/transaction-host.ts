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
  private readonly storage = new AsyncLocalStorage<EntityManager>();

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  get manager(): EntityManager {
    return this.storage.getStore() ?? this.dataSource.manager;
  }

  get inTransaction(): boolean {
    return this.storage.getStore() !== undefined;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.storage.getStore()) return work();
    return this.dataSource.transaction((manager) => this.storage.run(manager, work));
  }
}
