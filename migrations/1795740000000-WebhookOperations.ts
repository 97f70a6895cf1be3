import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook operations (issue 16): `budget_balances.low_since` remembers, under the account's balance lock, that
 * `budget.low` was recorded for the current dip below the threshold (null: armed); the previous secret of a rotated
 * endpoint signs alongside the new one until its expiry; finished deliveries are pruned by age through a partial index.
 */
export class WebhookOperations1795740000000 implements MigrationInterface {
  name = 'WebhookOperations1795740000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "budget_balances" ADD "low_since" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD "previous_secret" character varying(100)`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_deliveries_finished_created" ON "webhook_deliveries" ("created_at") WHERE status <> 'pending'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_deliveries_finished_created"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "previous_secret_expires_at"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "previous_secret"`);
    await queryRunner.query(`ALTER TABLE "budget_balances" DROP COLUMN "low_since"`);
  }
}
