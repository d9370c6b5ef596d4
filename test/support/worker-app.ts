import { Injectable, Module, OnModuleInit, Type } from '@nestjs/common';
import { BullModule, InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Test, TestingModule, TestingModuleBuilder } from '@nestjs/testing';
import { AppConfig, Outbox, OutboxRelay, PlatformModule, QueueProducer, TransactionHost, WORKER_CONFIG_DEFAULTS } from '@outreach/platform';
import { Job, Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { serviceMigrations } from './service-modules';
import { prepareTestDatabase } from './test-app';

/** The test-only queue the worker app consumes. */
export const TEST_QUEUE = 'reliability-test';

export interface SeenJob {
  id: string;
  name: string;
  data: unknown;
  attemptsMade: number;
}

/** Every job the test processor handled, in order. */
@Injectable()
export class JobLog {
  readonly seen: SeenJob[] = [];
  redisErrors = 0;

  record(job: Job): void {
    this.seen.push({ id: String(job.id), name: job.name, data: job.data, attemptsMade: job.attemptsMade });
  }

  /** How many times the job with this id was processed. */
  count(jobId: string): number {
    return this.seen.filter((j) => j.id === jobId).length;
  }

  /** Job id → times processed. */
  counts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const j of this.seen) counts.set(j.id, (counts.get(j.id) ?? 0) + 1);
    return counts;
  }

  clear(): void {
    this.seen.length = 0;
    this.redisErrors = 0;
  }
}

@Processor(TEST_QUEUE)
class TestJobProcessor extends WorkerHost {
  constructor(private readonly log: JobLog) {
    super();
  }

  async process(job: Job): Promise<void> {
    this.log.record(job);
  }

  /** Connection errors during a drill are expected; count them instead of printing them. */
  @OnWorkerEvent('error')
  onError(): void {
    this.log.redisErrors++;
  }
}

/** The Queue that registerQueue provides reports connection errors too; count them quietly. */
@Injectable()
class TestQueueErrors implements OnModuleInit {
  constructor(
    @InjectQueue(TEST_QUEUE) private readonly queue: Queue,
    private readonly log: JobLog,
  ) {}

  onModuleInit(): void {
    this.queue.on('error', () => this.log.redisErrors++);
  }
}

@Module({
  imports: [BullModule.registerQueue({ name: TEST_QUEUE })],
  providers: [JobLog, TestJobProcessor, TestQueueErrors],
  exports: [JobLog],
})
class TestJobsModule {}

/** The worker's platform wiring exactly as apps/worker declares it, without other modules' processors. */
@Module({
  imports: [
    PlatformModule.forRoot({ role: 'worker', migrations: serviceMigrations(), configDefaults: WORKER_CONFIG_DEFAULTS }),
  ],
})
class PlatformWorkerModule {}

export interface WorkerAppOptions {
  /** The root module: the platform's worker side by default (pass apps/worker's WorkerModule for all of it). */
  root?: Type<unknown>;
  configure?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
}

/**
 * The worker side (PlatformModule role 'worker': outbox relay, queue producer, BullMQ) plus a
 * test processor on TEST_QUEUE that records every job it sees, as a Nest application context on
 * this jest worker's test database. Configuration comes from process.env at create() time, so a
 * test may point REDIS_URL or DATABASE_URL at a TcpProxy first.
 */
export class WorkerApp {
  private constructor(private readonly moduleRef: TestingModule) {}

  static async create(options: WorkerAppOptions = {}): Promise<WorkerApp> {
    await prepareTestDatabase();
    let builder = Test.createTestingModule({ imports: [options.root ?? PlatformWorkerModule, TestJobsModule] });
    if (options.configure) builder = options.configure(builder);
    const moduleRef = await builder.compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    return new WorkerApp(moduleRef);
  }

  get<T>(type: Type<T> | (abstract new (...args: never[]) => T)): T {
    return this.moduleRef.get(type as Type<T>, { strict: false });
  }

  get jobs(): JobLog {
    return this.get(JobLog);
  }

  get relay(): OutboxRelay {
    return this.get(OutboxRelay);
  }

  get producer(): QueueProducer {
    return this.get(QueueProducer);
  }

  get outbox(): Outbox {
    return this.get(Outbox);
  }

  get tx(): TransactionHost {
    return this.get(TransactionHost);
  }

  get dataSource(): DataSource {
    return this.get(DataSource);
  }

  get config(): AppConfig {
    return this.get(AppConfig);
  }

  async close(): Promise<void> {
    await this.moduleRef.close();
  }
}
