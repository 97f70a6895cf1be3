import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Account export settings the operator sets (docs/decisions.md, Account export settings): whether a request's
 * free-text `instructions` are used or replaced by the account's default, that default, and the lane the account's
 * AI-generated exports run in.
 */
export class AccountExportSettings1795730000000 implements MigrationInterface {
  name = 'AccountExportSettings1795730000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "accounts"
        ADD "free_text_customisation" boolean NOT NULL DEFAULT true,
        ADD "default_instructions" text,
        ADD "export_lane" character varying(10) NOT NULL DEFAULT 'realtime',
        ADD CONSTRAINT "CHK_accounts_default_instructions_length" CHECK (char_length("default_instructions") <= 2000),
        ADD CONSTRAINT "CHK_accounts_export_lane" CHECK ("export_lane" IN ('realtime', 'batch'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "accounts"
        DROP CONSTRAINT "CHK_accounts_export_lane",
        DROP CONSTRAINT "CHK_accounts_default_instructions_length",
        DROP COLUMN "export_lane",
        DROP COLUMN "default_instructions",
        DROP COLUMN "free_text_customisation"`,
    );
  }
}
