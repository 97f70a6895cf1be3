import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Database guarantees behind "money moves once" and job recovery: one hold, one closing entry and one charge per
 * piece of work; one primary snapshot per scan; indexes for the reconcilers (open holds, unfinished exports).
 */
export class MoneyAndRecovery1795469942042 implements MigrationInterface {
  name = 'MoneyAndRecovery1795469942042';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_budget_ledger_reservation" ON "budget_ledger" ("reference_type", "reference_id") WHERE kind = 'reservation'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_budget_ledger_closure" ON "budget_ledger" ("reference_type", "reference_id") WHERE kind IN ('settlement', 'release')`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_budget_ledger_charge" ON "budget_ledger" ("reference_type", "reference_id") WHERE kind = 'charge'`,
    );
    await queryRunner.query(`CREATE INDEX "ix_budget_balances_reserved" ON "budget_balances" ("account_id") WHERE reserved_cents <> 0`);
    await queryRunner.query(`CREATE UNIQUE INDEX "ux_snapshots_scan_primary" ON "snapshots" ("scan_id") WHERE kind <> 'council_seat'`);
    await queryRunner.query(
      `CREATE INDEX "ix_export_jobs_active_updated" ON "export_jobs" ("updated_at") WHERE status IN ('queued', 'processing')`,
    );
    // Keys carry a per-run segment now, so a run that loses a race never deletes the winner's bytes.
    await queryRunner.query(`ALTER TABLE "export_jobs" ALTER COLUMN "storage_key" TYPE character varying(300)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "export_jobs" ALTER COLUMN "storage_key" TYPE character varying(200)`);
    await queryRunner.query(`DROP INDEX "public"."ix_export_jobs_active_updated"`);
    await queryRunner.query(`DROP INDEX "public"."ux_snapshots_scan_primary"`);
    await queryRunner.query(`DROP INDEX "public"."ix_budget_balances_reserved"`);
    await queryRunner.query(`DROP INDEX "public"."ux_budget_ledger_charge"`);
    await queryRunner.query(`DROP INDEX "public"."ux_budget_ledger_closure"`);
    await queryRunner.query(`DROP INDEX "public"."ux_budget_ledger_reservation"`);
  }
}
