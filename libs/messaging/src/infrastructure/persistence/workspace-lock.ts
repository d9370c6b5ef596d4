import { TransactionHost } from '@outreach/platform';

/**
 * A transaction-scoped advisory lock per (table, workspace): creations and default changes of one
 * workspace's senders or templates are serialised, so "the first one is the default" and "one
 * default" hold under concurrent requests. Outside a transaction there is nothing to hold it for.
 */
export async function workspaceLock(tx: TransactionHost, table: string, workspaceId: string): Promise<void> {
  if (!tx.inTransaction) return;
  await tx.manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`${table}:${workspaceId.toLowerCase()}`]);
}
