import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { SKIP_REASONS, TIMELINE_EVENTS_PER_CONTACT, TIMELINE_EVENT_TYPES } from '../../domain/contact-timeline';
import { Optional } from './validators';

/** Query of the timeline routes: cursor pagination like the other cursor lists (limit 1-100, default 50). */
export class TimelineQueryDto {
  @ApiPropertyOptional({ description: 'nextCursor of the previous page (opaque)' })
  @Optional()
  @IsString()
  @MaxLength(200)
  cursor?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 })
  @Optional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

export class TimelineEventResponse {
  @ApiProperty({ enum: TIMELINE_EVENT_TYPES, description: 'message_* types are reserved for the message legs and not written yet' })
  type: string;

  @ApiProperty({ format: 'date-time' })
  at: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'By type — created: source; claimed: attempt; skipped: reason (' +
      SKIP_REASONS.join(', ') +
      '), until (ISO instant or null); attempt_started: attempt, callId, toNumber; attempt_ended: attempt, callId, outcome, status; ' +
      'retry_scheduled: at, why (the outcome retried, incomplete_call, or next_number: an alternate number); result_emitted: resultId, status; webhook_delivered: resultId, endpointId, deliveryId, attempt, statusCode',
  })
  detail: Record<string, unknown>;
}

export class TimelinePageResponse {
  @ApiProperty({ type: [TimelineEventResponse], description: `Oldest first; the newest ${TIMELINE_EVENTS_PER_CONTACT} events of the contact are kept` })
  items: TimelineEventResponse[];

  @ApiProperty({ type: String, nullable: true, description: 'null: no more pages' })
  nextCursor: string | null;
}
