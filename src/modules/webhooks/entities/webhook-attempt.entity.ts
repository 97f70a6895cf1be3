import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookDelivery } from './webhook-delivery.entity';

@Entity({ name: 'webhook_attempts' })
@Index('ix_webhook_attempts_delivery', ['deliveryId', 'attemptedAt'])
export class WebhookAttempt {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_webhook_attempts' })
  id: string;

  @Column({ name: 'delivery_id', type: 'uuid' })
  deliveryId: string;

  @ManyToOne(() => WebhookDelivery, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id', foreignKeyConstraintName: 'FK_webhook_attempts_delivery' })
  delivery?: WebhookDelivery;

  @Column({ name: 'attempted_at', type: 'timestamptz' })
  attemptedAt: Date;

  /** Null when no HTTP response came back (refused address, timeout, connection error). */
  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus: number | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;
}
