import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, Clock, isUuid, normalisePhone } from '@outreach/core';
import { DncEntry, normaliseReason } from '../domain/dnc-entry';
import { DncRepository } from './dnc.ports';

export interface DncEntryView {
  id: string;
  phone: string;
  reason: string | null;
  createdAt: string;
}

const view = (e: DncEntry): DncEntryView => ({ id: e.id, phone: e.phone, reason: e.reason, createdAt: e.createdAt.toISOString() });

/** Largest batch `blockedAmong` sends to the database in one query. */
const LOOKUP_CHUNK = 1000;

/**
 * The workspace's do-not-call list. The engine asks `isBlocked` / `blockedAmong` with E.164
 * numbers (as contacts are stored) at claim time and before every retry.
 */
@Injectable()
export class DoNotCallList {
  constructor(
    private readonly repository: DncRepository,
    private readonly clock: Clock,
  ) {}

  async isBlocked(workspaceId: string, e164: string): Promise<boolean> {
    return (await this.blockedAmong(workspaceId, [e164])).has(e164);
  }

  async blockedAmong(workspaceId: string, e164s: string[]): Promise<Set<string>> {
    const unique = [...new Set(e164s)];
    const blocked = new Set<string>();
    for (let i = 0; i < unique.length; i += LOOKUP_CHUNK) {
      for (const phone of await this.repository.listed(workspaceId, unique.slice(i, i + LOOKUP_CHUNK))) blocked.add(phone);
    }
    return blocked;
  }

  /**
   * Adds a number (normalised to E.164; numbers need their calling code, else invalid_phone);
   * adding it again keeps one entry.
   */
  async add(workspaceId: string, input: { phone: string; reason?: string | null }): Promise<{ entry: DncEntryView; created: boolean }> {
    const phone = normalisePhone(input.phone);
    if (!phone) throw new AppError('invalid_phone', { message: 'phone must be a valid number, E.164 preferred (+14155550123)' });
    const { entry, created } = await this.repository.add({
      id: randomUUID(),
      workspaceId,
      phone,
      reason: normaliseReason(input.reason),
      createdAt: this.clock.now(),
    });
    return { entry: view(entry), created };
  }

  async list(workspaceId: string, offset: number, limit: number): Promise<{ items: DncEntryView[]; total: number }> {
    const { items, total } = await this.repository.list(workspaceId, offset, limit);
    return { items: items.map(view), total };
  }

  /** Removes by entry id or by phone number; 404 not_found when neither is on the list. */
  async remove(workspaceId: string, phoneOrId: string): Promise<void> {
    let removed = false;
    if (isUuid(phoneOrId)) {
      removed = await this.repository.removeById(workspaceId, phoneOrId);
    } else {
      const phone = normalisePhone(phoneOrId);
      removed = phone !== null && (await this.repository.removeByPhone(workspaceId, phone));
    }
    if (!removed) throw new AppError('not_found', { message: 'That number is not on the do-not-call list' });
  }
}
