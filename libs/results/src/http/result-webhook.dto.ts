import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { DELIVERY_STATUSES } from '../application/results.ports';
import { MAX_WEBHOOK_URL_LENGTH } from '../domain/webhook-endpoint';
import { CursorQueryDto, Optional } from './result.dto';

export class CreateResultWebhookDto {
  @ApiProperty({ maxLength: MAX_WEBHOOK_URL_LENGTH, example: 'https://hooks.example.com/outreach', description: 'http(s); private, loopback and link-local targets are refused' })
  @IsString()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  url: string;

  @ApiPropertyOptional({ default: true })
  @Optional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ nullable: true, type: String, maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;
}

export class UpdateResultWebhookDto {
  @ApiPropertyOptional({ maxLength: MAX_WEBHOOK_URL_LENGTH })
  @Optional()
  @IsString()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  url?: string;

  @ApiPropertyOptional({ description: 'true also clears a disabledReason' })
  @Optional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ nullable: true, type: String, maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;
}

export class DeliveriesQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID()
  endpointId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID()
  resultId?: string;

  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @Optional()
  @IsIn(DELIVERY_STATUSES)
  status?: (typeof DELIVERY_STATUSES)[number];
}

export class ResultWebhookResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() url: string;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'Why the service switched it off (a receiver answered 410 Gone)' }) disabledReason: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) secretRotatedAt: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'Until then the previous secret also signs deliveries' })
  previousSecretExpiresAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class ResultWebhookWithSecretResponse extends ResultWebhookResponse {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'Shown once. Verify deliveries per Standard Webhooks' }) secret: string;
}

export class ResultWebhooksResponse {
  @ApiProperty({ type: [ResultWebhookResponse] }) webhooks: ResultWebhookResponse[];
}

class DeliveryAttemptResponse {
  @ApiProperty({ type: 'integer' }) number: number;
  @ApiProperty({ format: 'date-time' }) attemptedAt: string;
  @ApiProperty({ nullable: true, type: 'integer', description: 'The receiver’s status; null when none came (refused, timed out)' }) statusCode: number | null;
  @ApiProperty({ nullable: true, type: String }) error: string | null;
  @ApiProperty({ type: 'integer' }) durationMs: number;
}

export class DeliveryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) endpointId: string;
  @ApiProperty({ format: 'uuid', description: 'Also the webhook-id header of every attempt' }) resultId: string;
  @ApiProperty({ enum: DELIVERY_STATUSES }) status: string;
  @ApiProperty({ type: 'integer' }) attemptCount: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) nextAttemptAt: string | null;
  @ApiProperty({ nullable: true, type: 'integer' }) lastStatusCode: number | null;
  @ApiProperty({ nullable: true, type: String }) lastError: string | null;
  @ApiProperty({ type: [DeliveryAttemptResponse] }) attempts: DeliveryAttemptResponse[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class DeliveriesPage {
  @ApiProperty({ type: [DeliveryResponse] }) items: DeliveryResponse[];
  @ApiProperty({ nullable: true, type: String }) nextCursor: string | null;
}

export class ApiLogResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() method: string;
  @ApiProperty({ example: '/v1/campaigns/:campaignId/leads' }) route: string;
  @ApiProperty() path: string;
  @ApiProperty({ type: 'integer' }) status: number;
  @ApiProperty({ nullable: true, type: String }) error: string | null;
  @ApiProperty({ type: 'integer' }) latencyMs: number;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) keyId: string | null;
  @ApiProperty({ nullable: true, type: String }) requestId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class ApiLogsPage {
  @ApiProperty({ type: [ApiLogResponse] }) items: ApiLogResponse[];
  @ApiProperty({ nullable: true, type: String }) nextCursor: string | null;
}
