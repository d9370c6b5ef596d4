import { CampaignTypeProps } from './campaign-type.aggregate';

const EPOCH = new Date('2026-01-01T00:00:00Z');

/**
 * Campaign types the platform offers every workspace (read-only, `isOwn: false`). They live in code,
 * not in a table: they change with releases, like the rest of the service's catalogue.
 */
export const PLATFORM_CAMPAIGN_TYPES: readonly CampaignTypeProps[] = [
  {
    id: '00000000-0000-4000-8000-00000000c701',
    workspaceId: null,
    name: 'Lead qualification',
    description: 'Qualify leads: budget, timeline and decision maker.',
    extractionKeys: [
      { name: 'budget', type: 'string', description: 'Budget the lead mentioned, with currency if given' },
      { name: 'timeline', type: 'string', description: 'When the lead intends to buy or start' },
      { name: 'decision_maker', type: 'boolean', description: 'Whether the person can decide the purchase' },
    ],
    status: 'ACTIVE',
    createdAt: EPOCH,
    updatedAt: EPOCH,
  },
  {
    id: '00000000-0000-4000-8000-00000000c702',
    workspaceId: null,
    name: 'Appointment booking',
    description: 'Book a meeting, site visit or phone callback.',
    extractionKeys: [
      { name: 'appointment_at', type: 'datetime', description: 'Agreed appointment time, ISO 8601' },
      { name: 'appointment_type', type: 'string', description: 'site_visit, online_meet or phone_callback' },
    ],
    status: 'ACTIVE',
    createdAt: EPOCH,
    updatedAt: EPOCH,
  },
  {
    id: '00000000-0000-4000-8000-00000000c703',
    workspaceId: null,
    name: 'Feedback survey',
    description: 'Collect a rating and free-text feedback.',
    extractionKeys: [
      { name: 'rating', type: 'integer', description: 'Rating from 1 to 5' },
      { name: 'feedback', type: 'string', description: 'What the customer said about the experience' },
    ],
    status: 'ACTIVE',
    createdAt: EPOCH,
    updatedAt: EPOCH,
  },
];
