import { Check, Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const EXPORT_LANES = ['realtime', 'batch'] as const;
/** Where an account's AI-generated exports queue (docs/decisions.md, Account export settings). */
export type ExportLane = (typeof EXPORT_LANES)[number];
/** The spec's `instructions` limit, which an account's default must meet too. */
export const DEFAULT_INSTRUCTIONS_MAX_CHARS = 2000;

/** A customer account, provisioned the first time a verified dashboard session or the operator CLI names it. */
@Entity({ name: 'accounts' })
@Check('CHK_accounts_default_instructions_length', `char_length("default_instructions") <= ${DEFAULT_INSTRUCTIONS_MAX_CHARS}`)
@Check('CHK_accounts_export_lane', `"export_lane" IN ('realtime', 'batch')`)
export class Account {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The identity provider's account id (`account_id` claim). */
  @Column({ name: 'external_id', type: 'varchar', length: 200, unique: true })
  externalId: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Off: a request's export `instructions` are replaced by `defaultInstructions` (or dropped), never rejected. */
  @Column({ name: 'free_text_customisation', type: 'boolean', default: true })
  freeTextCustomisation: boolean;

  /** Used when customisation is off, and when a request sends no `instructions` of its own. */
  @Column({ name: 'default_instructions', type: 'text', nullable: true })
  defaultInstructions: string | null;

  @Column({ name: 'export_lane', type: 'varchar', length: 10, default: 'realtime' })
  exportLane: ExportLane;
}
