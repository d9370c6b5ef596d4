import {
  CarrierAccount,
  CarrierAccounts,
  ProviderAgents,
  RealVoiceAdapterName,
  VoiceAdapterName,
  VoiceCallRoute,
  VoiceCallRoutes,
} from '../application/carrier-accounts';

/** Carrier accounts in memory (credentials in the clear: nothing is sealed here). */
export class InMemoryCarrierAccounts extends CarrierAccounts {
  readonly accounts = new Map<string, CarrierAccount>();

  async find(workspaceId: string, carrier: string): Promise<CarrierAccount | null> {
    return this.accounts.get(`${workspaceId}/${carrier}`) ?? null;
  }

  async listEnabled(workspaceId: string, adapter: RealVoiceAdapterName): Promise<CarrierAccount[]> {
    return [...this.accounts.values()].filter((a) => a.workspaceId === workspaceId && a.adapter === adapter && a.enabled);
  }

  async configure(input: {
    workspaceId: string;
    carrier: string;
    adapter: VoiceAdapterName;
    baseUrl: string | null;
    credentials: Record<string, string> | null;
  }): Promise<{ enabled: boolean }> {
    const key = `${input.workspaceId}/${input.carrier}`;
    const enabled = this.accounts.get(key)?.enabled ?? true;
    if (input.adapter === 'sandbox' || !input.credentials) {
      this.accounts.delete(key);
      return { enabled };
    }
    this.accounts.set(key, {
      workspaceId: input.workspaceId,
      carrier: input.carrier,
      adapter: input.adapter,
      enabled,
      baseUrl: input.baseUrl ?? `https://${input.adapter}.invalid`,
      credentials: input.credentials,
    });
    return { enabled };
  }
}

export class InMemoryVoiceCallRoutes extends VoiceCallRoutes {
  readonly routes = new Map<string, VoiceCallRoute>();

  async open(route: Omit<VoiceCallRoute, 'providerCallId'>): Promise<VoiceCallRoute> {
    if (!this.routes.has(route.callId)) this.routes.set(route.callId, { ...route, providerCallId: null });
    return { ...this.routes.get(route.callId)! };
  }

  async accepted(callId: string, providerCallId: string): Promise<void> {
    const route = this.routes.get(callId);
    if (route) route.providerCallId = providerCallId;
  }

  async find(callId: string): Promise<VoiceCallRoute | null> {
    const route = this.routes.get(callId);
    return route ? { ...route } : null;
  }

  async findByProviderCallId(adapter: RealVoiceAdapterName, providerCallId: string): Promise<VoiceCallRoute | null> {
    return [...this.routes.values()].find((r) => r.adapter === adapter && r.providerCallId === providerCallId) ?? null;
  }
}

export class InMemoryProviderAgents extends ProviderAgents {
  readonly ids = new Map<string, string>();

  async find(workspaceId: string, carrier: string, agentId: string): Promise<string | null> {
    return this.ids.get(`${workspaceId}/${carrier}/${agentId}`) ?? null;
  }

  async save(workspaceId: string, carrier: string, agentId: string, providerAgentId: string): Promise<void> {
    this.ids.set(`${workspaceId}/${carrier}/${agentId}`, providerAgentId);
  }
}
