import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'custom_functions' })
export class CustomFunctionEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'workspace_id', type: 'uuid' }) workspaceId: string;
  @Column('text') name: string;
  @Column('text') description: string;
  /** A JSON Schema object. */
  @Column('jsonb') parameters: object;
  @Column('text') method: string;
  @Column('text') url: string;
  @Column({ name: 'header_names', type: 'text', array: true }) headerNames: string[];
  /** AES-256-GCM sealed JSON of the header values; never selected for responses. */
  @Column({ name: 'headers_sealed', type: 'text', nullable: true, select: false }) headersSealed: string | null;
  @Column({ name: 'timeout_ms', type: 'integer' }) timeoutMs: number;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
