import { MAX_OFFSET } from '@outreach/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsString, Length, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { WAITING_REASONS } from '../../domain/contact-schedule';
import { CONTACT_STATUSES } from '../../domain/contact-state-machine';
import { CampaignExtractionKeyDto, ExtractionKeyResponse } from './extraction.dto';
import { IsStringRecord, Optional } from './validators';

// ---- campaign types -----------------------------------------------------------------------

/** What creating and changing a campaign type share: both optional, absent means "leave as is". */
class CampaignTypeFieldsDto {
  @ApiPropertyOptional({ maxLength: 500 })
  @Optional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({ type: [CampaignExtractionKeyDto], maxItems: 64 })
  @Optional()
  @IsArray()
  @ArrayMaxSize(64)
  @ValidateNested({ each: true })
  @Type(() => CampaignExtractionKeyDto)
  extractionKeys?: CampaignExtractionKeyDto[];
}

export class CreateCampaignTypeDto extends CampaignTypeFieldsDto {
  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  name: string;
}

export class UpdateCampaignTypeDto extends CampaignTypeFieldsDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @Optional()
  @IsString()
  @Length(1, 100)
  name?: string;
}

export class CampaignTypeResponse {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: [ExtractionKeyResponse] }) extractionKeys: ExtractionKeyResponse[];
  @ApiProperty({ example: 'ACTIVE' }) status: string;
  @ApiProperty({ description: 'Owned by the workspace (false: a read-only platform type)' }) isOwn: boolean;
}

export class CampaignTypeListResponse {
  @ApiProperty({ type: [CampaignTypeResponse] }) campaignTypes: CampaignTypeResponse[];
}

// ---- contacts and leads -------------------------------------------------------------------

/** One contact of POST /campaigns/{id}/contacts (the body is a JSON array of these). */
export class ContactInputDto {
  @ApiProperty({ minLength: 1, maxLength: 64, example: '+14155552671', description: 'E.164 preferred; else the campaign countryCode applies' })
  @IsString()
  @Length(1, 64)
  phone: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @Optional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional({ type: [String], maxItems: 5 })
  @Optional()
  @IsArray()
  @ArrayMaxSize(5)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  altPhones?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: 'Usable as {{variables}}' })
  @Optional()
  @IsStringRecord(200, 2000)
  fields?: Record<string, string>;
}

export const MAX_CONTACTS_PER_REQUEST = 5000;

export class AddContactsResponse {
  @ApiProperty({ type: 'integer' }) rows: number;
  @ApiProperty({ type: 'integer' }) imported: number;
  @ApiProperty({ type: 'integer' }) duplicates: number;
  @ApiProperty({ type: 'integer' }) invalid: number;
  @ApiProperty({ type: 'integer' }) contactCount: number;
}

export class LeadsQueryDto {
  @ApiPropertyOptional({ minimum: 0, maximum: MAX_OFFSET, default: 0 })
  @Optional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_OFFSET)
  offset?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 50 })
  @Optional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;

  @ApiPropertyOptional({ enum: CONTACT_STATUSES })
  @Optional()
  @IsIn(CONTACT_STATUSES)
  status?: (typeof CONTACT_STATUSES)[number];
}

export class ContactResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) campaignId: string;
  @ApiProperty({ description: 'E.164' }) phone: string;
  @ApiProperty({ type: [String] }) altPhones: string[];
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) fields: Record<string, string>;
  @ApiProperty({ enum: CONTACT_STATUSES }) status: string;
  @ApiProperty({ type: 'integer' }) attempts: number;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) lastAttemptAt: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'When the contact is expected to be tried next (now when it is due and waits only for a free line); null when in flight, final, or not known (a paused campaign)',
  })
  nextAttemptAt: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    enum: [...WAITING_REASONS],
    description: 'Why the contact is not being called now; null when it is in flight, final, or due (docs/decisions.md 28.5)',
  })
  waitingReason: string | null;
  @ApiProperty({ type: String, nullable: true }) lastOutcome: string | null;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'The number being (or last) dialled: 0 the primary phone, n the n-th of altPhones. A number left unreached after its retries moves the contact on to the next one',
  })
  phoneIndex: number;
  @ApiProperty({ type: String, nullable: true, description: 'The number on which a person answered (phone or an alternate); null until one did' })
  connectedPhone: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The recipient's time zone derived from the primary number; null when the number does not tell (the campaign's timezone applies)" })
  recipientZone: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Whose public holidays apply (skipHolidays): a country ("JP") or country-subdivision ("US-NY"); null when unknown' })
  recipientRegion: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class LeadsResponse {
  @ApiProperty({ type: [ContactResponse] }) items: ContactResponse[];
  @ApiProperty({ type: 'integer' }) total: number;
}

// ---- phone numbers and uploads ------------------------------------------------------------

export class AttachPhoneNumberDto {
  @ApiProperty({ description: 'A number of the workspace (GET /phone-numbers) on an enabled carrier' })
  @IsString()
  @Length(1, 100)
  phoneNumberId: string;
}

export class UploadResponse {
  @ApiProperty({ format: 'uuid' }) uploadId: string;
  @ApiProperty() fileName: string;
  @ApiProperty({ type: [String] }) columns: string[];
  @ApiProperty({ type: 'integer' }) rowCount: number;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: { type: 'string' } }, description: 'First 5 rows' })
  preview: Array<Record<string, string>>;
  @ApiProperty({ format: 'date-time', description: 'After this the upload can no longer be imported' }) expiresAt: string;
}

export class UploadBodyDoc {
  @ApiProperty({ type: 'string', format: 'binary', description: 'CSV or XLSX with a header row' }) file: unknown;
}
