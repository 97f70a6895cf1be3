import { MigrationInterface, QueryRunner } from 'typeorm';

export class Exports1795361954152 implements MigrationInterface {
  name = 'Exports1795361954152';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "export_jobs" ("id" uuid NOT NULL, "account_id" uuid NOT NULL, "api_key_id" uuid, "snapshot_id" uuid NOT NULL, "provider" character varying(40) NOT NULL, "artifact_type" character varying(40) NOT NULL, "options" jsonb NOT NULL, "status" character varying(20) NOT NULL, "effective_locale" character varying(10), "locale_provenance" character varying(40), "cost_cents" numeric(14,4) NOT NULL DEFAULT '0', "error" text, "result_mime" character varying(120), "result_filename" character varying(200), "result_size_bytes" integer, "storage_key" character varying(200), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, "purged_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_3044ce6f1c6af24058ee609e063" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_export_jobs_retention" ON "export_jobs"  ("completed_at") WHERE status = 'completed' AND purged_at IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_export_jobs_account_snapshot" ON "export_jobs"  ("account_id", "snapshot_id", "created_at") `,
    );
    await queryRunner.query(`CREATE INDEX "ix_export_jobs_account_created" ON "export_jobs"  ("account_id", "created_at") `);
    await queryRunner.query(
      `ALTER TABLE "export_jobs" ADD CONSTRAINT "FK_f69a482800b41da5b209050b8cd" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "export_jobs" DROP CONSTRAINT "FK_f69a482800b41da5b209050b8cd"`);
    await queryRunner.query(`DROP INDEX "public"."ix_export_jobs_account_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_export_jobs_account_snapshot"`);
    await queryRunner.query(`DROP INDEX "public"."ix_export_jobs_retention"`);
    await queryRunner.query(`DROP TABLE "export_jobs"`);
  }
}
