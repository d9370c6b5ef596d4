// An in-memory InboundCampaignStore over the in-memory campaigns, attachments and contacts, and the
// real InboundCampaigns service on top of it (specs of the lifecycle and of inbound calls).
import { AgentDirectory } from '@outreach/agents';
import { PhoneNumberDirectory } from '@outreach/telephony';
import type { WorkspaceAdministration } from '@outreach/workspaces';
import { InboundCaller, InboundCampaigns, InboundCampaignStore, InboundRoute } from '../application/inbound-campaigns';
import { allowedFrom } from '../domain/contact-state-machine';
import { InMemoryApiLeadContactStore, InMemoryCampaignPhoneNumbers, InMemoryCampaignRepository, InMemoryContactRepository } from './in-memory-campaigns';
import { inMemoryTimeline } from './in-memory-contact-timeline';

const LIVE = ['RUNNING', 'PAUSED', 'CREDIT_EXHAUSTED'];

export class InMemoryInboundCampaignStore extends InboundCampaignStore {
  readonly received = new Map<string, number>();

  constructor(
    private readonly campaigns: InMemoryCampaignRepository,
    private readonly attached: InMemoryCampaignPhoneNumbers,
    private readonly contacts: InMemoryContactRepository,
  ) {
    super();
  }

  async liveCampaignsOn(numberIds: readonly string[], exceptCampaignId: string): Promise<Array<{ numberId: string; campaignId: string }>> {
    return [...this.campaigns.rows.values()]
      .filter((c) => c.source === 'INBOUND' && LIVE.includes(c.status) && c.id !== exceptCampaignId)
      .flatMap((c) => (this.attached.attached.get(c.id) ?? []).filter((n) => numberIds.includes(n)).map((numberId) => ({ numberId, campaignId: c.id })));
  }

  async lockRunningCampaignOn(numberId: string): Promise<InboundRoute | null> {
    const c = [...this.campaigns.rows.values()].find((x) => x.source === 'INBOUND' && x.status === 'RUNNING' && (this.attached.attached.get(x.id) ?? []).includes(numberId));
    return c ? { campaignId: c.id, workspaceId: c.workspaceId, agentId: c.agentId } : null;
  }

  async answer(input: { campaignId: string; contactId: string; callId: string; now: Date; deadlineAt: Date }): Promise<{ attemptSeq: number; attempts: number } | null> {
    const c = this.contacts.rows.get(input.contactId);
    if (!c || c.campaignId !== input.campaignId || !allowedFrom('answerInbound').includes(c.status)) return null;
    const next = { ...c, status: 'IN_PROGRESS' as const, attempts: c.attempts + 1, attemptSeq: c.attemptSeq + 1, currentCallId: input.callId, attemptStartedAt: input.now, attemptDeadlineAt: input.deadlineAt };
    this.contacts.rows.set(c.id, next);
    return { attemptSeq: next.attemptSeq, attempts: next.attempts };
  }

  async countReceivedCall(campaignId: string): Promise<void> {
    this.received.set(campaignId, (this.received.get(campaignId) ?? 0) + 1);
  }

  async findCaller(contactId: string): Promise<InboundCaller | null> {
    const c = this.contacts.rows.get(contactId);
    const campaign = c ? this.campaigns.stored(c.campaignId) : undefined;
    if (!c || campaign?.source !== 'INBOUND') return null;
    return { contactId: c.id, campaignId: c.campaignId, workspaceId: campaign.workspaceId, phone: c.phone, name: c.name, fields: { ...c.fields } };
  }
}

/** The real InboundCampaigns over in-memory stores. */
export function inMemoryInboundCampaigns(input: {
  campaigns: InMemoryCampaignRepository;
  contacts: InMemoryContactRepository;
  attached: InMemoryCampaignPhoneNumbers;
  numbers: PhoneNumberDirectory;
  agents: AgentDirectory;
}): { inbound: InboundCampaigns; store: InMemoryInboundCampaignStore } {
  const store = new InMemoryInboundCampaignStore(input.campaigns, input.attached, input.contacts);
  const timeline = inMemoryTimeline();
  const leads = new InMemoryApiLeadContactStore(input.campaigns, input.contacts, timeline.recorded);
  return { inbound: new InboundCampaigns(store, leads, input.attached, input.numbers, input.agents, timeline, {
      get: async () => ({ features: ['inbound'] }),
    } as unknown as WorkspaceAdministration), store };
}
