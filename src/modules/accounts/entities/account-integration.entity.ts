import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { Account } from './account.entity';

export const INTEGRATIONS = ['notebook', 'voicePodcast'] as const;
export type IntegrationKind = (typeof INTEGRATIONS)[number];

/** An external export integration configured for an account by an operator. */
@Entity({ name: 'account_integrations' })
export class AccountIntegration {
  @PrimaryColumn({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: Account;

  @PrimaryColumn({ type: 'varchar', length: 40 })
  integration: IntegrationKind;

  @Column({ type: 'jsonb' })
  config: Record<string, unknown>;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
