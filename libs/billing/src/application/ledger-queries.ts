import { createHmac } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig, AppError, Clock } from '@outreach/core';
import { decodeLedgerCursor, encodeLedgerCursor } from '../domain/ledger-cursor';
import { LedgerPeriod, LedgerRange, ledgerRange } from '../domain/ledger-period';
import { LedgerEntryView, WalletRepository } from './wallet.ports';

export const LEDGER_DEFAULT_LIMIT = 50;
export const LEDGER_MAX_LIMIT = 200;

export interface LedgerRequest {
  workspaceId: string;
  period?: LedgerPeriod;
  kind?: 'credit' | 'debit';
  from?: Date;
  to?: Date;
  cursor?: string;
  limit?: number;
}

/**
 * GET /credits/ledger: newest first, keyset pagination over (created_at, id). The first page
 * resolves the period (in UTC, at the Clock's now); the cursor carries that range, the filters
 * and the last position, signed, so the next pages neither repeat nor skip an entry while new
 * ones arrive. Filters sent with a cursor must be those of the first page (else invalid_cursor).
 */
@Injectable()
export class LedgerQueries {
  private readonly cursorKey: Buffer;

  constructor(
    private readonly wallets: WalletRepository,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    // A key of its own, derived from the deployment secret: cursors survive restarts and are
    // valid on every API replica.
    this.cursorKey = createHmac('sha256', config.functionSecretsKey).update('outreach/ledger-cursor/v1').digest();
  }

  async page(request: LedgerRequest): Promise<{ items: LedgerEntryView[]; nextCursor: string | null }> {
    const limit = request.limit ?? LEDGER_DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > LEDGER_MAX_LIMIT) {
      throw new AppError('invalid_query', { message: `limit must be 1-${LEDGER_MAX_LIMIT}` });
    }

    let period: LedgerPeriod;
    let kind: 'credit' | 'debit' | null;
    let range: LedgerRange;
    let after: { createdAt: string; id: string } | null = null;
    if (request.cursor !== undefined) {
      const cursor = decodeLedgerCursor(request.cursor, this.cursorKey, request.workspaceId);
      const differs =
        (request.period !== undefined && request.period !== cursor.period) ||
        (request.kind !== undefined && request.kind !== cursor.kind) ||
        (request.from !== undefined && (cursor.period !== 'custom' || request.from.toISOString() !== cursor.range.from)) ||
        (request.to !== undefined && (cursor.period !== 'custom' || request.to.toISOString() !== cursor.range.to));
      if (differs) throw new AppError('invalid_cursor', { message: 'The cursor belongs to a query with other filters' });
      ({ period, kind, range } = cursor);
      after = { createdAt: cursor.createdAt, id: cursor.id };
    } else {
      period = request.period ?? 'all_time';
      if ((request.from || request.to) && period !== 'custom') {
        throw new AppError('invalid_query', { message: 'from and to go with period=custom' });
      }
      kind = request.kind ?? null;
      const lastRechargeAt = period === 'since_last_recharge' ? await this.wallets.lastCreditAt(request.workspaceId) : null;
      range = ledgerRange(period, this.clock.now(), { from: request.from, to: request.to, lastRechargeAt });
    }

    const rows = await this.wallets.ledgerPage({
      workspaceId: request.workspaceId,
      kind,
      from: range.from,
      to: range.to,
      after,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor =
      rows.length > limit && last
        ? encodeLedgerCursor({ createdAt: last.positionAt, id: last.id, period, kind, range }, this.cursorKey, request.workspaceId)
        : null;
    return { items: page.map(({ positionAt: _position, ...entry }) => entry), nextCursor };
  }
}
