import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Public } from '../auth/access.decorators';
import { PROBE_COMMAND_TIMEOUT_MS, RedisCommands } from '../redis/redis.module';

async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

class LiveResponse {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
}

class CheckResponse {
  @ApiProperty({ enum: ['up', 'down'] }) status: 'up' | 'down';
  @ApiProperty({ required: false, description: 'Why the check failed' }) error?: string;
}

class ChecksResponse {
  @ApiProperty({ type: CheckResponse }) postgres: CheckResponse;
  @ApiProperty({ type: CheckResponse }) redis: CheckResponse;
}

class ReadyResponse {
  @ApiProperty({ enum: ['ok', 'unavailable'] }) status: 'ok' | 'unavailable';
  @ApiProperty({ type: ChecksResponse }) checks: ChecksResponse;
}

@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: RedisCommands,
  ) {}

  /** The process is up. */
  @Public()
  @Get('live')
  @HttpCode(200)
  @ApiOperation({ summary: 'The process is up (no key)' })
  @ApiOkResponse({ type: LiveResponse })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Ready to serve: PostgreSQL and Redis answer. 503 with the failing check otherwise. */
  @Public()
  @Get('ready')
  @ApiOperation({ summary: 'PostgreSQL and Redis answer (no key); 503 with the failing check otherwise' })
  @ApiOkResponse({ type: ReadyResponse })
  @ApiServiceUnavailableResponse({ type: ReadyResponse, description: 'A check failed' })
  async ready(@Res({ passthrough: true }) res: Response) {
    const checks: Record<string, { status: 'up' | 'down'; error?: string }> = {};
    await Promise.all([
      within(1000, this.dataSource.query('SELECT 1'))
        .then(() => (checks.postgres = { status: 'up' }))
        .catch((e: Error) => (checks.postgres = { status: 'down', error: e.message })),
      within(PROBE_COMMAND_TIMEOUT_MS, this.redis.probe.ping())
        .then(() => (checks.redis = { status: 'up' }))
        .catch((e: Error) => (checks.redis = { status: 'down', error: e.message })),
    ]);
    const ok = Object.values(checks).every((c) => c.status === 'up');
    res.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'unavailable', checks };
  }
}
