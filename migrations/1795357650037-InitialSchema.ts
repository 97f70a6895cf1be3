import { MigrationInterface, QueryRunner } from "typeorm";

export class InitialSchema1795357650037 implements MigrationInterface {
    name = 'InitialSchema1795357650037'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "accounts" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "external_id" character varying(200) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_ee32a4964f6c324a71536a89159" UNIQUE ("external_id"), CONSTRAINT "PK_5a7a02c20412299d198e097a8fe" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "account_integrations" ("account_id" uuid NOT NULL, "integration" character varying(40) NOT NULL, "config" jsonb NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d839900a2cdf952430ec65cc992" PRIMARY KEY ("account_id", "integration"))`);
        await queryRunner.query(`CREATE TABLE "users" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "account_id" uuid NOT NULL, "subject" character varying(200) NOT NULL, "email" character varying(320), "name" character varying(200), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "uq_users_account_subject" ON "users"  ("account_id", "subject") `);
        await queryRunner.query(`CREATE TABLE "budget_balances" ("account_id" uuid NOT NULL, "pool_cents" numeric(14,4) NOT NULL DEFAULT '0', "spent_cents" numeric(14,4) NOT NULL DEFAULT '0', "reserved_cents" numeric(14,4) NOT NULL DEFAULT '0', "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e5dccbbe754a090771df6866df0" PRIMARY KEY ("account_id"))`);
        await queryRunner.query(`CREATE TABLE "budget_ledger" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "account_id" uuid NOT NULL, "kind" character varying(20) NOT NULL, "amount_cents" numeric(14,4) NOT NULL, "reference_type" character varying(40), "reference_id" character varying(100), "note" character varying(300), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_014a19f86cec669d0bfc5c4b6a4" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "ix_budget_ledger_reference" ON "budget_ledger"  ("account_id", "reference_type", "reference_id") `);
        await queryRunner.query(`CREATE INDEX "ix_budget_ledger_account_created" ON "budget_ledger"  ("account_id", "created_at") `);
        await queryRunner.query(`CREATE TABLE "api_keys" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "account_id" uuid NOT NULL, "name" character varying(200) NOT NULL, "key_hash" character(64) NOT NULL, "masked_prefix" character varying(40) NOT NULL, "created_by_user_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "uq_api_keys_key_hash" ON "api_keys"  ("key_hash") `);
        await queryRunner.query(`CREATE INDEX "ix_api_keys_account_active" ON "api_keys"  ("account_id") WHERE revoked_at IS NULL`);
        await queryRunner.query(`ALTER TABLE "account_integrations" ADD CONSTRAINT "FK_5dfea828c5ae94d0762f82ba650" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "users" ADD CONSTRAINT "FK_17a709b8b6146c491e6615c29d7" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "budget_balances" ADD CONSTRAINT "FK_e5dccbbe754a090771df6866df0" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "budget_ledger" ADD CONSTRAINT "FK_7c9a84ea6e8aed4e2430c7a9db6" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "api_keys" ADD CONSTRAINT "FK_decaf331589778e33441b2a8d9e" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        // The ledger is append-only: corrections are new entries, never edits.
        await queryRunner.query(`CREATE FUNCTION budget_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'budget_ledger is append-only'; END $$`);
        await queryRunner.query(`CREATE TRIGGER budget_ledger_append_only BEFORE UPDATE OR DELETE ON "budget_ledger" FOR EACH ROW EXECUTE FUNCTION budget_ledger_append_only()`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TRIGGER budget_ledger_append_only ON "budget_ledger"`);
        await queryRunner.query(`DROP FUNCTION budget_ledger_append_only()`);
        await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "FK_decaf331589778e33441b2a8d9e"`);
        await queryRunner.query(`ALTER TABLE "budget_ledger" DROP CONSTRAINT "FK_7c9a84ea6e8aed4e2430c7a9db6"`);
        await queryRunner.query(`ALTER TABLE "budget_balances" DROP CONSTRAINT "FK_e5dccbbe754a090771df6866df0"`);
        await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "FK_17a709b8b6146c491e6615c29d7"`);
        await queryRunner.query(`ALTER TABLE "account_integrations" DROP CONSTRAINT "FK_5dfea828c5ae94d0762f82ba650"`);
        await queryRunner.query(`DROP INDEX "public"."ix_api_keys_account_active"`);
        await queryRunner.query(`DROP INDEX "public"."uq_api_keys_key_hash"`);
        await queryRunner.query(`DROP TABLE "api_keys"`);
        await queryRunner.query(`DROP INDEX "public"."ix_budget_ledger_account_created"`);
        await queryRunner.query(`DROP INDEX "public"."ix_budget_ledger_reference"`);
        await queryRunner.query(`DROP TABLE "budget_ledger"`);
        await queryRunner.query(`DROP TABLE "budget_balances"`);
        await queryRunner.query(`DROP INDEX "public"."uq_users_account_subject"`);
        await queryRunner.query(`DROP TABLE "users"`);
        await queryRunner.query(`DROP TABLE "account_integrations"`);
        await queryRunner.query(`DROP TABLE "accounts"`);
    }

}
