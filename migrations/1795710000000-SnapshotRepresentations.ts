import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Snapshot reads served as stored bytes: each representation a read returns (a language of the snapshot, a
 * sub-resource) is derived once and kept with its strong ETag, keyed by snapshot, resource and variant. The rows go
 * with their snapshot (and so with their account).
 */
export class SnapshotRepresentations1795710000000 implements MigrationInterface {
  name = 'SnapshotRepresentations1795710000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "snapshot_representations" (
        "snapshot_id" uuid NOT NULL,
        "resource" character varying(32) NOT NULL,
        "variant" character varying(64) NOT NULL,
        "account_id" uuid NOT NULL,
        "projection_version" integer NOT NULL,
        "etag" character varying(100) NOT NULL,
        "body" text NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_snapshot_representations" PRIMARY KEY ("snapshot_id", "resource", "variant")
      )`,
    );
    await queryRunner.query(
      `ALTER TABLE "snapshot_representations" ADD CONSTRAINT "FK_snapshot_representations_snapshot" FOREIGN KEY ("snapshot_id") REFERENCES "snapshots"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "snapshot_representations"`);
  }
}
