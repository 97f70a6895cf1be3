import { MigrationInterface, QueryRunner } from "typeorm";

export class ScansAndSnapshots1795358966292 implements MigrationInterface {
    name = 'ScansAndSnapshots1795358966292'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "estimator_stats" ("fingerprint_key" character varying(200) NOT NULL, "engine_version" character varying(20) NOT NULL, "fingerprint" jsonb NOT NULL, "samples" jsonb NOT NULL, "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_3ab377a6620a87638311bf27518" PRIMARY KEY ("fingerprint_key"))`);
        await queryRunner.query(`CREATE INDEX "ix_estimator_stats_engine" ON "estimator_stats"  ("engine_version") `);
        await queryRunner.query(`CREATE TABLE "scans" ("id" uuid NOT NULL, "account_id" uuid NOT NULL, "api_key_id" uuid, "status" character varying(20) NOT NULL, "progress" jsonb NOT NULL, "config" jsonb NOT NULL, "engine" character varying(20) NOT NULL, "mode" character varying(10) NOT NULL, "snapshot_id" uuid, "error" text, "estimate_cents" integer, "reserved_cents" numeric(14,4) NOT NULL, "cost_cents" numeric(14,4), "fingerprint_key" character varying(200) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_41156c08314b9e541c1cb18c588" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "ix_scans_running_updated" ON "scans"  ("updated_at") WHERE status = 'running'`);
        await queryRunner.query(`CREATE INDEX "ix_scans_account_created" ON "scans"  ("account_id", "created_at") `);
        await queryRunner.query(`CREATE TABLE "snapshots" ("id" uuid NOT NULL, "account_id" uuid NOT NULL, "scan_id" uuid NOT NULL, "kind" character varying(20) NOT NULL, "parent_snapshot_id" uuid, "title" character varying(300) NOT NULL, "config" jsonb NOT NULL, "data" jsonb NOT NULL, "engine" character varying(20) NOT NULL, "horizon" smallint NOT NULL, "jurisdictions" text array NOT NULL, "areas" text array NOT NULL, "jurisdiction_keys" text array NOT NULL, "area_keys" text array NOT NULL, "item_count" integer NOT NULL, "cost_cents" numeric(14,4), "estimate_cents" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f5661b5fd4224d23e26a631986b" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "ix_snapshots_account_created" ON "snapshots"  ("account_id", "created_at") `);
        // Case-insensitive exact filters on jurisdiction and area (GET /v1/snapshots) use these.
        await queryRunner.query(`CREATE INDEX "ix_snapshots_jurisdiction_keys" ON "snapshots" USING gin ("jurisdiction_keys")`);
        await queryRunner.query(`CREATE INDEX "ix_snapshots_area_keys" ON "snapshots" USING gin ("area_keys")`);
        await queryRunner.query(`ALTER TABLE "scans" ADD CONSTRAINT "FK_3ef276d7a2b7913b118e236b560" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "snapshots" ADD CONSTRAINT "FK_811de10c6727efa94de5ed87d15" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "snapshots" DROP CONSTRAINT "FK_811de10c6727efa94de5ed87d15"`);
        await queryRunner.query(`ALTER TABLE "scans" DROP CONSTRAINT "FK_3ef276d7a2b7913b118e236b560"`);
        await queryRunner.query(`DROP INDEX "public"."ix_snapshots_area_keys"`);
        await queryRunner.query(`DROP INDEX "public"."ix_snapshots_jurisdiction_keys"`);
        await queryRunner.query(`DROP INDEX "public"."ix_snapshots_account_created"`);
        await queryRunner.query(`DROP TABLE "snapshots"`);
        await queryRunner.query(`DROP INDEX "public"."ix_scans_account_created"`);
        await queryRunner.query(`DROP INDEX "public"."ix_scans_running_updated"`);
        await queryRunner.query(`DROP TABLE "scans"`);
        await queryRunner.query(`DROP INDEX "public"."ix_estimator_stats_engine"`);
        await queryRunner.query(`DROP TABLE "estimator_stats"`);
    }

}
