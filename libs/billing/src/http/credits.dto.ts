import { OffsetPageQuery } from '@outreach/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, Min } from 'class-validator';
import { DEBIT_KINDS } from '../domain/money';
import { LEDGER_PERIODS, LedgerPeriod } from '../domain/ledger-period';
import { RECHARGE_STATUSES } from '../domain/recharge';
import { LEDGER_DEFAULT_LIMIT, LEDGER_MAX_LIMIT } from '../application/ledger-queries';

export class BalanceResponse {
  @ApiProperty({ type: 'integer', description: 'Integer minor units of the currency; may be negative after calls' }) balanceMinor: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) trialUntil: string | null;
  @ApiProperty({ description: 'Balance > 0, or an active trial: campaigns may dial' }) canSpend: boolean;
}

export class LedgerQueryDto {
  @ApiPropertyOptional({
    enum: LEDGER_PERIODS,
    default: 'all_time',
    description: 'Evaluated in UTC. custom needs from and to; since_last_recharge starts at the latest credit',
  })
  @IsOptional()
  @IsIn(LEDGER_PERIODS)
  period?: LedgerPeriod;

  @ApiPropertyOptional({ enum: ['credit', 'debit'] })
  @IsOptional()
  @IsIn(['credit', 'debit'])
  kind?: 'credit' | 'debit';

  @ApiPropertyOptional({ format: 'date-time', description: 'period=custom: start (inclusive)' })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'period=custom: end (exclusive)' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @IsOptional()
  @IsString()
  cursor?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: LEDGER_MAX_LIMIT, default: LEDGER_DEFAULT_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(LEDGER_MAX_LIMIT)
  limit?: number;
}

export class LedgerEntryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['credit', 'debit'] }) kind: string;
  @ApiProperty({ enum: DEBIT_KINDS, nullable: true, type: String, description: 'What a debit paid for' }) debitKind: string | null;
  @ApiProperty({ type: 'integer', description: 'Positive integer minor units (debits may be 0)' }) amountMinor: number;
  @ApiProperty({ type: 'integer' }) balanceAfterMinor: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ nullable: true, type: String }) reference: string | null;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class LedgerPageResponse {
  @ApiProperty({ type: [LedgerEntryResponse] }) items: LedgerEntryResponse[];
  @ApiProperty({ nullable: true, type: String, description: 'null: no more pages' }) nextCursor: string | null;
}

/** offset 0-1,000,000 and limit 1-200 (default 50). */
export class OffsetQueryDto extends OffsetPageQuery {}

export class RechargeResponse {
  @ApiProperty({ format: 'uuid', description: 'Also the id of the ledger entry that credits it' }) orderId: string;
  @ApiProperty({ enum: RECHARGE_STATUSES }) status: string;
  @ApiProperty({ type: 'integer' }) amountMinor: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ nullable: true, type: String }) reference: string | null;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) creditedAt: string | null;
}

export class RechargeListResponse {
  @ApiProperty({ type: [RechargeResponse] }) items: RechargeResponse[];
  @ApiProperty({ type: 'integer' }) total: number;
}

export class ReceiptResponse {
  @ApiProperty() receiptNumber: string;
  @ApiProperty({ format: 'uuid' }) orderId: string;
  @ApiProperty({ enum: ['CREDITED'] }) status: string;
  @ApiProperty({ format: 'uuid' }) workspaceId: string;
  @ApiProperty() workspaceName: string;
  @ApiProperty({ type: 'integer' }) amountMinor: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ nullable: true, type: String }) reference: string | null;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) creditedAt: string;
  @ApiProperty({ format: 'uuid' }) ledgerEntryId: string;
  @ApiProperty({ type: 'integer' }) balanceAfterMinor: number;
}
