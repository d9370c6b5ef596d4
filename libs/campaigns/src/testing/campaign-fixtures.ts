// Campaigns in a given state, for use-case specs: built through the aggregate (so they obey its
// rules), then restored with the status and fields a spec needs.
import { randomUUID } from 'node:crypto';
import { Campaign, CampaignDraft, CampaignProps } from '../domain/campaign.aggregate';

export const FIXTURE_NOW = new Date('2026-11-21T10:00:00Z');

export function aCampaign(
  input: { workspaceId: string; id?: string; draft?: Partial<CampaignDraft>; now?: Date } & Partial<
    Pick<CampaignProps, 'status' | 'reservedConcurrency' | 'allowBurst' | 'startedAt' | 'endedAt' | 'agentId' | 'workflowId' | 'campaignTypeId'>
  >,
): Campaign {
  const { workspaceId, id = randomUUID(), draft = {}, now = FIXTURE_NOW, ...props } = input;
  const created = Campaign.create({
    id,
    workspaceId,
    draft: { name: `Campaign ${id}`, channel: 'VOICE', source: 'CSV', ...draft },
    context: { typeKeys: [], hasAudience: false },
    now,
  });
  return Campaign.restore({ ...created.toProps(), ...props });
}
