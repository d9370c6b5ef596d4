import { SandboxCallRecord, SandboxCallRecords } from '../infrastructure/sandbox-call-records';

/** The sandbox provider's call store in memory; `failing` makes every call reject (the store unreachable). */
export class InMemorySandboxCallRecords extends SandboxCallRecords {
  readonly records = new Map<string, SandboxCallRecord>();
  failing = false;

  async put(record: SandboxCallRecord): Promise<void> {
    if (this.failing) throw new Error('sandbox store unreachable');
    this.records.set(record.callId, record);
  }

  async get(callId: string): Promise<SandboxCallRecord | null> {
    if (this.failing) throw new Error('sandbox store unreachable');
    return this.records.get(callId) ?? null;
  }
}
