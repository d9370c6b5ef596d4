import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A job to enqueue, written in the same transaction as the change that causes it. */
@Entity({ name: 'outbox' })
export class OutboxMessageEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  queue: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  /** BullMQ jobId to use; null → outbox-<id>. */
  @Column({ name: 'job_id', type: 'text', nullable: true })
  jobId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'dispatched_at', type: 'timestamptz', nullable: true })
  dispatchedAt: Date | null;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  /** Set after a failure of this row alone: not tried again before then. */
  @Column({ name: 'retry_at', type: 'timestamptz', nullable: true })
  retryAt: Date | null;
}
