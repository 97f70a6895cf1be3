import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookEndpoint } from './webhook-endpoint.entity';

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event for one endpoint; its id is the `webhook-id` header of every attempt. */
@Entity({ name: 'webhook_deliveries' })
@Index('ix_webhook_deliveries_endpoint_created', ['endpointId', 'createdAt', 'id'])
@Index('ix_webhook_deliveries_endpoint_delivered', ['endpointId', 'deliveredAt'], { where: "status = 'delivered'" })
@Index('ix_webhook_deliveries_pending', ['createdAt'], { where: "status = 'pending'" })
// The retention sweep deletes finished deliveries by age.
@Index('ix_webhook_deliveries_finished_created', ['createdAt'], { where: "status <> 'pending'" })
export class WebhookDelivery {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_webhook_deliveries' })
  id: string;

  @Column({ name: 'endpoint_id', type: 'uuid' })
  endpointId: string;

  @ManyToOne(() => WebhookEndpoint, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'FK_webhook_deliveries_endpoint' })
  endpoint?: WebhookEndpoint;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ name: 'event_type', type: 'varchar', length: 40 })
  eventType: string;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: WebhookDeliveryStatus;

  @Column({ name: 'attempt_count', type: 'integer', default: 0 })
  attemptCount: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;
}
