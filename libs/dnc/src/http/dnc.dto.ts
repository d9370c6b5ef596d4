import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
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

export class DncListQueryDto {
  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;
}

export class DncEntryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '+14155550123' }) phone: string;
  @ApiProperty({ nullable: true, type: String }) reason: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class DncListResponse {
  @ApiProperty({ type: [DncEntryResponse] }) items: DncEntryResponse[];
  @ApiProperty() total: number;
}
