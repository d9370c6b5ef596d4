/*
 * The framework's floor (decisions.md 45.10): the raw baseline's two operations — its one-statement
 * push and its primary-key read, on its scratch tables — served by NestJS on Express, the stack the
 * service is built on, and nothing else: no auth, validation, middleware, logging. Its ratio to the
 * raw baseline is the most a Nest + Express service can reach on this machine; the service's ratio
 * to it is what the service's own per-request work costs.
 *
 *   POST /leads   {"campaignId","idempotencyKey","phone","name"?,"fields"?}  → 201 (200 on replay)
 *   GET  /results/<uuid>                                                    → 200 stored envelope
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { Body, Controller, Get, Inject, Module, NotFoundException, Param, Post, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Response } from 'express';
import { Pool } from 'pg';
import { dropScratchRows, PUSH, SCHEMA } from './raw-server';

const POOL = Symbol('pool');

interface LeadBody {
  campaignId: string;
  idempotencyKey: string;
  phone: string;
  name?: string;
  fields?: object;
}

@Controller()
class MinimumController {
  constructor(@Inject(POOL) private readonly pool: Pool) {}

  @Get('results/:id')
  async read(@Param('id') id: string): Promise<unknown> {
    const { rows } = await this.pool.query({ name: 'nest_read', text: `SELECT envelope FROM bench_raw.results WHERE id = $1` }, [id]);
    if (!rows.length) throw new NotFoundException();
    return rows[0].envelope;
  }

  @Post('leads')
  async push(@Body() b: LeadBody, @Res({ passthrough: true }) res: Response): Promise<unknown> {
    const { rows } = await this.pool.query({ name: 'nest_push', text: PUSH }, [b.campaignId, b.idempotencyKey, randomUUID(), b.phone, b.name ?? null, JSON.stringify(b.fields ?? {})]);
    if (rows.length) {
      res.status(201);
      return rows[0].response;
    }
    res.status(200);
    const known = await this.pool.query(`SELECT response FROM bench_raw.idempotency WHERE campaign_id = $1 AND key = $2`, [b.campaignId, b.idempotencyKey]);
    return known.rows[0].response;
  }
}

export interface NestMinimum {
  url: string;
  resultId: string;
  campaignId: string;
  close(): Promise<void>;
}

/** Starts the Nest minimum on 127.0.0.1 (port 0 = any); `envelope` is the row GET returns (the service's, as for the raw baseline). */
export async function startNestMinimum(databaseUrl: string, options: { poolSize?: number; envelope?: unknown } = {}): Promise<NestMinimum> {
  const pool = new Pool({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
  await pool.query(SCHEMA);
  const resultId = randomUUID();
  const campaignId = randomUUID();
  await pool.query(`INSERT INTO bench_raw.results (id, envelope) VALUES ($1, $2::jsonb)`, [resultId, JSON.stringify(options.envelope ?? { id: resultId, outcome: 'completed' })]);

  @Module({ controllers: [MinimumController], providers: [{ provide: POOL, useValue: pool }] })
  class MinimumModule {}

  const app = await NestFactory.create(MinimumModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`,
    resultId,
    campaignId,
    async close() {
      await app.close();
      await dropScratchRows(pool, campaignId, resultId);
      await pool.end();
    },
  };
}
