import { CarrierSettingsRepository } from '../application/telephony.ports';

/** Carrier switches per workspace in memory: a carrier never set is enabled. */
export class InMemoryCarrierSettings extends CarrierSettingsRepository {
  readonly disabled = new Set<string>();

  async setEnabled(workspaceId: string, carrier: string, enabled: boolean): Promise<void> {
    if (enabled) this.disabled.delete(`${workspaceId}/${carrier}`);
    else this.disabled.add(`${workspaceId}/${carrier}`);
  }

  isEnabled(workspaceId: string, carrier: string): boolean {
    return !this.disabled.has(`${workspaceId}/${carrier}`);
  }
}
