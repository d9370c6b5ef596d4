import { LeadKeyRecord, LeadKeyStore, LeadPushBody } from '../application/results.ports';

/** The lead push's idempotency keys in memory: unique per (campaign, key), as the unique index keeps them. */
export class RacingLeadKeyStore extends LeadKeyStore {
  readonly records: LeadKeyRecord[] = [];
  /**
   * Set to make the next claim lose to a concurrent push: the record is stored as the winner's
   * (the store then answers false, as the unique index would).
   */
  concurrentWinner: ((record: Omit<LeadKeyRecord, 'leadId' | 'response'>) => LeadKeyRecord | null) | null = null;

  async find(campaignId: string, key: string): Promise<LeadKeyRecord | null> {
    const record = this.records.find((r) => r.campaignId === campaignId && r.idempotencyKey === key);
    return record ? structuredClone(record) : null;
  }

  async claim(record: Omit<LeadKeyRecord, 'leadId' | 'response'>): Promise<boolean> {
    if (this.concurrentWinner) {
      const winner = this.concurrentWinner(record);
      this.concurrentWinner = null;
      if (winner) this.records.push(winner);
      return false;
    }
    if (this.records.some((r) => r.campaignId === record.campaignId && r.idempotencyKey === record.idempotencyKey)) return false;
    this.records.push({ ...structuredClone(record), leadId: null, response: null });
    return true;
  }

  async complete(campaignId: string, key: string, leadId: string, response: LeadPushBody): Promise<void> {
    const record = this.records.find((r) => r.campaignId === campaignId && r.idempotencyKey === key)!;
    record.leadId = leadId;
    record.response = structuredClone(response);
  }

  async firstForLead(leadId: string): Promise<LeadKeyRecord | null> {
    const record = this.records.find((r) => r.leadId === leadId);
    return record ? structuredClone(record) : null;
  }
}
