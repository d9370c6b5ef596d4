import { OffsetPageQuery } from '@outreach/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { DNC_REASON_MAX_LENGTH } from '../domain/dnc-entry';

export class AddDncDto {
  @ApiProperty({ example: '+14155550123', description: 'Normalised to E.164; numbers need their calling code' })
  @IsString()
  @MaxLength(64)
  phone: string;

  @ApiPropertyOptional({ maxLength: DNC_REASON_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(DNC_REASON_MAX_LENGTH)
  reason?: string;
}

/** offset 0-1,000,000 and limit 1-200 (default 50). */
export class DncListQueryDto extends OffsetPageQuery {}

export class DncEntryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '+14155550123' }) phone: string;
  @ApiProperty({ nullable: true, type: String }) reason: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class DncListResponse {
  @ApiProperty({ type: [DncEntryResponse] }) items: DncEntryResponse[];
  @ApiProperty({ type: 'integer' }) total: number;
}
