import { randomUUID } from 'node:crypto';
import { ContactStatus } from '../domain/contact';
import { ContactRepository, ContactView, NewContact } from '../application/campaigns.ports';

/** Campaign contacts in memory: one contact per (campaign, phone), as the unique index keeps it. */
export class ImportingContactRepository extends ContactRepository {
  readonly contacts: ContactView[] = [];
  /** How many insertMany round trips the callers made (import batching). */
  insertCalls = 0;

  constructor(private readonly now: () => Date = () => new Date('2026-01-01T00:00:00.000Z')) {
    super();
  }

  async insertMany(_workspaceId: string, campaignId: string, contacts: readonly NewContact[]): Promise<number> {
    this.insertCalls += 1;
    let inserted = 0;
    for (const c of contacts) {
      if (this.contacts.some((x) => x.campaignId === campaignId && x.phone === c.phone)) continue;
      const at = this.now().toISOString();
      this.contacts.push({
        id: randomUUID(),
        campaignId,
        phone: c.phone,
        altPhones: [...c.altPhones],
        name: c.name,
        fields: { ...c.fields },
        status: 'PENDING',
        attempts: 0,
        lastAttemptAt: null,
        nextAttemptAt: null,
        lastOutcome: null,
        createdAt: at,
        updatedAt: at,
      });
      inserted += 1;
    }
    return inserted;
  }

  async count(campaignId: string, status?: ContactStatus): Promise<number> {
    return this.of(campaignId, status).length;
  }

  async hasAny(campaignId: string): Promise<boolean> {
    return this.of(campaignId).length > 0;
  }

  async list(campaignId: string, query: { offset: number; limit: number; status?: ContactStatus }): Promise<{ items: ContactView[]; total: number }> {
    const all = this.of(campaignId, query.status);
    return { items: all.slice(query.offset, query.offset + query.limit), total: all.length };
  }

  async findById(campaignId: string, contactId: string): Promise<ContactView | null> {
    return this.of(campaignId).find((c) => c.id === contactId) ?? null;
  }

  async resetToPending(campaignId: string, statuses: readonly ContactStatus[], contactId?: string): Promise<number> {
    let reset = 0;
    for (const c of this.of(campaignId)) {
      if (!statuses.includes(c.status) || (contactId !== undefined && c.id !== contactId)) continue;
      Object.assign(c, { status: 'PENDING', attempts: 0, nextAttemptAt: null, updatedAt: this.now().toISOString() });
      reset += 1;
    }
    return reset;
  }

  /** The campaign's phones, in insertion order. */
  phones(campaignId: string): string[] {
    return this.of(campaignId).map((c) => c.phone);
  }

  private of(campaignId: string, status?: ContactStatus): ContactView[] {
    return this.contacts.filter((c) => c.campaignId === campaignId && (status === undefined || c.status === status));
  }
}
