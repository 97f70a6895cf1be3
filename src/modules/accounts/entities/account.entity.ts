import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A customer account, provisioned the first time a verified dashboard session or the operator CLI names it. */
@Entity({ name: 'accounts' })
export class Account {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The identity provider's account id (`account_id` claim). */
  @Column({ name: 'external_id', type: 'varchar', length: 200, unique: true })
  externalId: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
