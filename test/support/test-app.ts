import { INestApplication, ModuleMetadata, Type } from '@nestjs/common';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import {
  AccessChanges,
  ALL_SCOPES,
  AppConfig,
  configureApiApp,
  loadConfig,
  runMigrations,
} from '@outreach/platform';
import { SandboxVoiceProvider, VoiceProvider } from '@outreach/telephony';
import { ApiKeyAdministration, MemberAdministration, WorkspaceAdministration } from '@outreach/workspaces';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiModule } from '../../apps/api/src/api.module';
import { checkedAgent, prepareOpenApiCheck } from './openapi-check';
import { serviceMigrations } from './service-modules';

export interface TestAppOptions {
  /** Extra modules (test-only controllers, fakes). */
  imports?: ModuleMetadata['imports'];
  /** The root module; the API by default. */
  root?: Type<unknown>;
  /** Adjust the testing module (override providers such as Clock). */
  configure?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
}

let migrated = false;

/** Applies migrations to this worker's test database once per jest worker. */
export async function prepareTestDatabase(): Promise<void> {
  if (migrated) return;
  const config = loadConfig();
  assertTestDatabase(config.databaseName);
  await runMigrations(config, serviceMigrations());
  migrated = true;
}

export function assertTestDatabase(name: string): void {
  if (!name.includes('test')) throw new Error(`refusing to touch database ${name}: its name must contain "test"`);
}

/**
 * Empties every table but the migrations log. Uses its own connection without the API's query
 * timeout: TRUNCATE waits for the locks of a worker booted beside the API in the same test.
 */
export async function truncateAll(dataSource: DataSource): Promise<void> {
  const url = String((dataSource.options as { url?: string }).url);
  assertTestDatabase(new URL(url).pathname);
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ tablename: string }>(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations'`,
    );
    if (rows.length === 0) return;
    const truncate = `TRUNCATE ${rows.map((r) => `"${r.tablename}"`).join(', ')} RESTART IDENTITY CASCADE`;
    // A worker of the previous case may still be applying a call's events (they arrive after the
    // case ended): TRUNCATE's locks can then deadlock with its transaction. Postgres cancels one
    // side; when it is ours, the worker's transaction went through and the next try wins.
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(truncate);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
        await new Promise((r) => setTimeout(r, 50 * attempt));
      }
    }
  } finally {
    await client.end();
  }
}

export interface Seeded {
  workspaceId: string;
  ownerMemberId: string;
  key: string;
  keyId: string;
}

/** The real API app (same pipeline as main.ts) on this worker's test database. */
export class TestApp {
  private constructor(
    readonly app: INestApplication,
    readonly dataSource: DataSource,
  ) {}

  static async create(options: TestAppOptions = {}): Promise<TestApp> {
    await prepareTestDatabase();
    await prepareOpenApiCheck();
    let builder = Test.createTestingModule({ imports: [options.root ?? ApiModule, ...(options.imports ?? [])] });
    if (options.configure) builder = options.configure(builder);
    const moduleRef = await builder.compile();
    const app = moduleRef.createNestApplication({ bodyParser: false, logger: false });
    configureApiApp(app);
    await app.init();
    return new TestApp(app, app.get(DataSource));
  }

  /** Requests to the app; each answer of a documented route is checked against /docs-json (openapi-check.ts). */
  get http() {
    return checkedAgent(request(this.app.getHttpServer()));
  }

  get config(): AppConfig {
    return this.app.get(AppConfig);
  }

  get<T>(type: Type<T> | (abstract new (...args: never[]) => T)): T {
    return this.app.get(type as Type<T>, { strict: false });
  }

  async reset(): Promise<void> {
    // Calls of the previous case may still be ending: their events would write into the truncation.
    // VoiceProvider is the router (decisions.md 27.1) unless a test replaced it; the sandbox is its default.
    for (const voice of new Set([this.get(VoiceProvider), this.get(SandboxVoiceProvider)])) {
      if (voice instanceof SandboxVoiceProvider) await voice.drain();
    }
    await truncateAll(this.dataSource);
    // The truncation bypassed the workspaces module: keys cached by the guard are gone from the tables.
    await this.get(AccessChanges).announce({ all: true });
  }

  /** A workspace with its owner and one key (scoped to every scope unless told otherwise). */
  async seed(
    options: { name?: string; scopes?: string[]; status?: string; features?: string[]; concurrency?: number } = {},
  ): Promise<Seeded> {
    const { workspace, ownerMemberId } = await this.get(WorkspaceAdministration).create({
      name: options.name ?? `ws-${Math.random().toString(36).slice(2, 8)}`,
      features: options.features,
      concurrency: options.concurrency,
    });
    const issued = await this.get(ApiKeyAdministration).create({
      workspaceId: workspace.id,
      name: 'test key',
      scopes: options.scopes ?? [...ALL_SCOPES],
    });
    if (options.status) await this.get(WorkspaceAdministration).setStatus(workspace.id, options.status);
    return { workspaceId: workspace.id, ownerMemberId, key: issued.key, keyId: issued.id };
  }

  async addKey(workspaceId: string, options: { scopes?: string[]; memberId?: string; expiresAt?: Date } = {}) {
    return this.get(ApiKeyAdministration).create({ workspaceId, name: 'extra key', ...options });
  }

  get members(): MemberAdministration {
    return this.get(MemberAdministration);
  }

  async close(): Promise<void> {
    await this.app.close();
  }
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
