import { MigrationInterface, QueryRunner } from "typeorm";

export class RequestPolicies1795358271177 implements MigrationInterface {
    name = 'RequestPolicies1795358271177'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "usage_counters" ("account_id" uuid NOT NULL, "api_key_id" uuid NOT NULL, "endpoint" character varying(100) NOT NULL, "status" smallint NOT NULL, "minute_start" TIMESTAMP WITH TIME ZONE NOT NULL, "requests" integer NOT NULL DEFAULT '0', "scans" integer NOT NULL DEFAULT '0', "exports" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_e15c2714a809810809ece7dd490" PRIMARY KEY ("account_id", "api_key_id", "endpoint", "status", "minute_start"))`);
        await queryRunner.query(`CREATE INDEX "ix_usage_counters_account_minute" ON "usage_counters"  ("account_id", "minute_start") `);
        await queryRunner.query(`CREATE TABLE "idempotency_records" ("api_key_id" uuid NOT NULL, "endpoint" character varying(100) NOT NULL, "idempotency_key" character varying(255) NOT NULL, "fingerprint" character(64) NOT NULL, "state" character varying(20) NOT NULL, "response_status" smallint, "response_headers" jsonb, "response_body" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_3cc9d24877cc7a6faf3b504bce7" PRIMARY KEY ("api_key_id", "endpoint", "idempotency_key"))`);
        await queryRunner.query(`CREATE INDEX "ix_idempotency_records_expires" ON "idempotency_records"  ("expires_at") `);
        await queryRunner.query(`ALTER TABLE "budget_ledger" ADD "api_key_id" uuid`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "budget_ledger" DROP COLUMN "api_key_id"`);
        await queryRunner.query(`DROP INDEX "public"."ix_idempotency_records_expires"`);
        await queryRunner.query(`DROP TABLE "idempotency_records"`);
        await queryRunner.query(`DROP INDEX "public"."ix_usage_counters_account_minute"`);
        await queryRunner.query(`DROP TABLE "usage_counters"`);
    }

}
