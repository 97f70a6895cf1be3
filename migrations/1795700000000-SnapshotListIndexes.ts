import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * GET /v1/snapshots at scale. A covering list index (newest first, the filter arrays included) lets a page skip
 * its offset rows and count a broad filter inside the index, without visiting the heap; it replaces the plain
 * account + created_at index. A btree_gin index over (account, keys) finds the rows of a narrow filter. An exact per-account count, kept by statement triggers on every insert and delete
 * (scans, direct SQL, account deletion cascades), answers the unfiltered total without counting.
 */
export class SnapshotListIndexes1795700000000 implements MigrationInterface {
  name = 'SnapshotListIndexes1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_snapshots_account_list" ON "snapshots" ("account_id", "created_at" DESC, "id" DESC) INCLUDE ("jurisdiction_keys", "area_keys")`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_snapshots_account_created"`);
    // Every array filter is scoped to an account: one GIN over (account, keys) intersects them in the index, where
    // the table-wide GIN indexes matched every account's rows and left the account to a heap filter.
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);
    await queryRunner.query(
      `CREATE INDEX "ix_snapshots_account_keys" ON "snapshots" USING gin ("account_id", "jurisdiction_keys", "area_keys")`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_snapshots_jurisdiction_keys"`);
    await queryRunner.query(`DROP INDEX "public"."ix_snapshots_area_keys"`);

    await queryRunner.query(
      `CREATE TABLE "snapshot_counts" ("account_id" uuid NOT NULL, "total" integer NOT NULL, CONSTRAINT "pk_snapshot_counts" PRIMARY KEY ("account_id"),
        CONSTRAINT "fk_snapshot_counts_account" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE)`,
    );
    // Rows are locked in account order, so two multi-account statements never deadlock on them.
    await queryRunner.query(`CREATE FUNCTION snapshot_counts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO snapshot_counts (account_id, total)
          SELECT account_id, count(*) FROM inserted GROUP BY account_id ORDER BY account_id
        ON CONFLICT (account_id) DO UPDATE SET total = snapshot_counts.total + excluded.total;
        RETURN NULL;
      END $$`);
    // An update, never an upsert: an account deletion cascades here after its count row may already be gone.
    await queryRunner.query(`CREATE FUNCTION snapshot_counts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE snapshot_counts c SET total = c.total - d.removed
          FROM (SELECT account_id, count(*) AS removed FROM deleted GROUP BY account_id ORDER BY account_id) d
          WHERE c.account_id = d.account_id;
        RETURN NULL;
      END $$`);
    // Snapshots never change owner; should one ever move, both counts follow (other updates write nothing).
    await queryRunner.query(`CREATE FUNCTION snapshot_counts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO snapshot_counts (account_id, total)
          SELECT account_id, sum(change) FROM (SELECT account_id, 1 AS change FROM inserted UNION ALL SELECT account_id, -1 FROM deleted) AS moved
          GROUP BY account_id HAVING sum(change) <> 0 ORDER BY account_id
        ON CONFLICT (account_id) DO UPDATE SET total = snapshot_counts.total + excluded.total;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE FUNCTION snapshot_counts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN DELETE FROM snapshot_counts; RETURN NULL; END $$`);
    await queryRunner.query(
      `CREATE TRIGGER snapshot_counts_insert AFTER INSERT ON "snapshots" REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION snapshot_counts_inserted()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER snapshot_counts_delete AFTER DELETE ON "snapshots" REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION snapshot_counts_deleted()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER snapshot_counts_update AFTER UPDATE ON "snapshots" REFERENCING OLD TABLE AS deleted NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION snapshot_counts_updated()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER snapshot_counts_truncate AFTER TRUNCATE ON "snapshots" FOR EACH STATEMENT EXECUTE FUNCTION snapshot_counts_truncated()`,
    );
    // The triggers' lock on snapshots is held until this migration commits, so no insert slips past the backfill.
    await queryRunner.query(
      `INSERT INTO snapshot_counts (account_id, total) SELECT account_id, count(*) FROM snapshots GROUP BY account_id`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER snapshot_counts_truncate ON "snapshots"`);
    await queryRunner.query(`DROP TRIGGER snapshot_counts_update ON "snapshots"`);
    await queryRunner.query(`DROP TRIGGER snapshot_counts_delete ON "snapshots"`);
    await queryRunner.query(`DROP TRIGGER snapshot_counts_insert ON "snapshots"`);
    await queryRunner.query(`DROP FUNCTION snapshot_counts_truncated()`);
    await queryRunner.query(`DROP FUNCTION snapshot_counts_updated()`);
    await queryRunner.query(`DROP FUNCTION snapshot_counts_deleted()`);
    await queryRunner.query(`DROP FUNCTION snapshot_counts_inserted()`);
    await queryRunner.query(`DROP TABLE "snapshot_counts"`);
    await queryRunner.query(`CREATE INDEX "ix_snapshots_area_keys" ON "snapshots" USING gin ("area_keys")`);
    await queryRunner.query(`CREATE INDEX "ix_snapshots_jurisdiction_keys" ON "snapshots" USING gin ("jurisdiction_keys")`);
    await queryRunner.query(`DROP INDEX "public"."ix_snapshots_account_keys"`);
    // btree_gin stays installed: other objects may have come to use it.
    await queryRunner.query(`CREATE INDEX "ix_snapshots_account_created" ON "snapshots" ("account_id", "created_at")`);
    await queryRunner.query(`DROP INDEX "public"."ix_snapshots_account_list"`);
  }
}
