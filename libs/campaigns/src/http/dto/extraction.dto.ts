import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsString,
  Length,
  Matches,
  ValidateNested,
} from 'class-validator';
import { EXTRACTION_KEY_NAME_PATTERN, EXTRACTION_KEY_TYPES, MAX_CUSTOM_EXTRACTION_KEYS } from '../../domain/extraction-keys';
import { EXTRACTION_MODES } from '../../domain/campaign-kinds';
import { Optional } from './validators';

/** One extraction key: a field the analysis fills from each conversation. */
export class CampaignExtractionKeyDto {
  @ApiProperty({ minLength: 1, maxLength: 64, pattern: EXTRACTION_KEY_NAME_PATTERN.source, example: 'budget' })
  @IsString()
  @Length(1, 64)
  @Matches(EXTRACTION_KEY_NAME_PATTERN, { message: 'name must start with a letter or _ and hold only letters, digits and _' })
  name: string;

  @ApiProperty({ minLength: 1, maxLength: 500, example: 'Budget the lead mentioned' })
  @IsString()
  @Length(1, 500)
  description: string;

  @ApiPropertyOptional({ enum: EXTRACTION_KEY_TYPES, default: 'string' })
  @Optional()
  @IsIn(EXTRACTION_KEY_TYPES)
  type?: string;
}

export class ExtractionKeyResponse {
  @ApiProperty() name: string;
  @ApiProperty({ enum: EXTRACTION_KEY_TYPES }) type: string;
  @ApiProperty() description: string;
}

/** Body of PUT /campaigns/{id}/custom-keys. */
export class ReplaceCustomKeysDto {
  @ApiProperty({ type: [CampaignExtractionKeyDto], maxItems: MAX_CUSTOM_EXTRACTION_KEYS })
  @IsArray()
  @ArrayMaxSize(MAX_CUSTOM_EXTRACTION_KEYS)
  @ValidateNested({ each: true })
  @Type(() => CampaignExtractionKeyDto)
  customExtractionKeys: CampaignExtractionKeyDto[];

  @ApiPropertyOptional({ enum: EXTRACTION_MODES, description: 'How the custom keys combine with the campaign type keys' })
  @Optional()
  @IsIn(EXTRACTION_MODES)
  customExtractionKeysMode?: 'APPEND' | 'REPLACE';
}

/** An evaluation metric: a judgement about each conversation, with its allowed values. */
export class EvaluationMetricDto {
  @ApiProperty({ minLength: 1, maxLength: 64, pattern: EXTRACTION_KEY_NAME_PATTERN.source, example: 'qualified' })
  @IsString()
  @Length(1, 64)
  @Matches(EXTRACTION_KEY_NAME_PATTERN, { message: 'key must start with a letter or _ and hold only letters, digits and _' })
  key: string;

  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  label: string;

  @ApiProperty({ type: [String], minItems: 1, maxItems: 20 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 100, { each: true })
  allowedValues: string[];

  @ApiProperty({ minLength: 1, maxLength: 5000 })
  @IsString()
  @Length(1, 5000)
  prompt: string;
}

export class EvaluationMetricResponse {
  @ApiProperty() key: string;
  @ApiProperty() label: string;
  @ApiProperty({ type: [String] }) allowedValues: string[];
  @ApiProperty() prompt: string;
  @ApiProperty() builtin: boolean;
}
