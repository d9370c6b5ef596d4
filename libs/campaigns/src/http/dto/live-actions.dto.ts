import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { REENGAGE_SEGMENTS } from '../../domain/reengage-segments';
import { CampaignResponse } from './campaign-response.dto';

/** Body of POST /campaigns/{id}/re-engage (docs/decisions.md 35.1). */
export class ReengageCampaignDto {
  @ApiProperty({
    enum: REENGAGE_SEGMENTS,
    description:
      'Which finished contacts start a fresh run: completed (reached), failed (every attempt spent), not_reached (finished with no_answer, busy, voicemail or carrier_failure last), all (every finished contact). DO_NOT_CALL contacts are never re-engaged',
  })
  @IsIn(REENGAGE_SEGMENTS)
  segment: (typeof REENGAGE_SEGMENTS)[number];
}

/** Answer of re-engage and finish-interrupted. */
export class RequeuedResponse {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Contacts put back to PENDING with a fresh run' })
  requeued: number;

  @ApiProperty({ type: CampaignResponse, description: 'The campaign afterwards (a COMPLETED campaign that got contacts back is RUNNING again)' })
  campaign: CampaignResponse;
}
