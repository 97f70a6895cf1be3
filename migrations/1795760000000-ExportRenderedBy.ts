import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who drew an image export (`rendered_by`: openai, gemini, or offline when the local renderer stood in) gets its own
 * column; the first build kept it under a reserved key of `options`, which this moves over and removes.
 */
export class ExportRenderedBy1795760000000 implements MigrationInterface {
  name = 'ExportRenderedBy1795760000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "export_jobs" ADD "rendered_by" character varying(20)`);
    await queryRunner.query(
      `UPDATE "export_jobs" SET "rendered_by" = options->>'_rendered_by', "options" = options - '_rendered_by' WHERE options ? '_rendered_by'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "export_jobs" SET "options" = options || jsonb_build_object('_rendered_by', "rendered_by") WHERE "rendered_by" IS NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE "export_jobs" DROP COLUMN "rendered_by"`);
  }
}
