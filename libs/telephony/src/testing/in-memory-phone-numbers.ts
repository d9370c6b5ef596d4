// An in-memory PhoneNumberRepository, and the real PhoneNumberDirectory on top of it, for
// use-case specs of modules that attach numbers (campaigns).
import { PhoneNumberDirectory } from '../application/phone-number-administration';
import { PhoneNumberRepository, PhoneNumberView } from '../application/telephony.ports';
import { PhoneNumber } from '../domain/phone-number';

export class InMemoryPhoneNumberRepository extends PhoneNumberRepository {
  readonly numbers = new Map<string, PhoneNumberView>();

  /** Adds a number (defaults: carrier sandbox, enabled, outbound only); returns it. */
  add(number: Partial<PhoneNumberView> & { id: string; workspaceId: string; e164: string }): PhoneNumberView {
    const view: PhoneNumberView = { carrier: 'sandbox', carrierEnabled: true, inbound: false, createdAt: '2026-01-01T00:00:00.000Z', ...number };
    this.numbers.set(view.id, view);
    return view;
  }

  async insert(number: PhoneNumber): Promise<void> {
    const p = number.toProps();
    if ([...this.numbers.values()].some((n) => n.e164 === p.e164)) throw new Error(`${p.e164} is registered already`);
    this.add({ ...p, createdAt: p.createdAt.toISOString() });
  }

  async listByWorkspace(workspaceId: string): Promise<PhoneNumberView[]> {
    return [...this.numbers.values()].filter((n) => n.workspaceId === workspaceId).map((n) => ({ ...n }));
  }

  async findByIds(workspaceId: string, ids: readonly string[]): Promise<PhoneNumberView[]> {
    return ids.flatMap((id) => {
      const n = this.numbers.get(id);
      return n && n.workspaceId === workspaceId ? [{ ...n }] : [];
    });
  }
}

/** The real directory over an in-memory repository; `numbers` is where a spec adds numbers. */
export function inMemoryPhoneNumberDirectory(): { directory: PhoneNumberDirectory; numbers: InMemoryPhoneNumberRepository } {
  const numbers = new InMemoryPhoneNumberRepository();
  return { directory: new PhoneNumberDirectory(numbers), numbers };
}
