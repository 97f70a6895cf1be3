import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signed webhooks: endpoints an account registers, one delivery row per event and endpoint (written in the
 * transaction of the state change it reports: an outbox), and every attempt to deliver it.
 */
export class Webhooks1795720000000 implements MigrationInterface {
  name = 'Webhooks1795720000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_endpoints" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "account_id" uuid NOT NULL,
        "url" character varying(2048) NOT NULL,
        "events" text array NOT NULL,
        "secret" character varying(100) NOT NULL,
        "description" character varying(200),
        "disabled_at" TIMESTAMP WITH TIME ZONE,
        "disabled_reason" character varying(500),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_webhook_endpoints" PRIMARY KEY ("id")
      )`,
    );
    await queryRunner.query(`CREATE INDEX "ix_webhook_endpoints_account" ON "webhook_endpoints" ("account_id", "created_at") `);
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "endpoint_id" uuid NOT NULL,
        "account_id" uuid NOT NULL,
        "event_type" character varying(40) NOT NULL,
        "payload" jsonb NOT NULL,
        "status" character varying(16) NOT NULL DEFAULT 'pending',
        "attempt_count" integer NOT NULL DEFAULT '0',
        "next_attempt_at" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "delivered_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_webhook_deliveries" PRIMARY KEY ("id")
      )`,
    );
    await queryRunner.query(`CREATE INDEX "ix_webhook_deliveries_endpoint_created" ON "webhook_deliveries" ("endpoint_id", "created_at", "id") `);
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_deliveries_endpoint_delivered" ON "webhook_deliveries" ("endpoint_id", "delivered_at") WHERE status = 'delivered'`,
    );
    await queryRunner.query(`CREATE INDEX "ix_webhook_deliveries_pending" ON "webhook_deliveries" ("created_at") WHERE status = 'pending'`);
    await queryRunner.query(
      `CREATE TABLE "webhook_attempts" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "delivery_id" uuid NOT NULL,
        "attempted_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "response_status" integer,
        "error" character varying(500),
        "duration_ms" integer NOT NULL,
        CONSTRAINT "PK_webhook_attempts" PRIMARY KEY ("id")
      )`,
    );
    await queryRunner.query(`CREATE INDEX "ix_webhook_attempts_delivery" ON "webhook_attempts" ("delivery_id", "attempted_at") `);
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "FK_webhook_endpoints_account" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_webhook_deliveries_endpoint" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_attempts" ADD CONSTRAINT "FK_webhook_attempts_delivery" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhook_attempts"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
  }
}
