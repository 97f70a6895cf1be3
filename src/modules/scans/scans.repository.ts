import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Scan, type ScanProgress, type ScanStatus } from './entities/scan.entity';

export interface FinishFields {
  snapshotId?: string | null;
  error?: string | null;
  costCents?: number | null;
  progress?: ScanProgress;
}

@Injectable()
export class ScansRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  insert(scan: Partial<Scan>, manager: EntityManager = this.dataSource.manager): Promise<unknown> {
    return manager.getRepository(Scan).insert(scan);
  }

  findOwned(accountId: string, id: string): Promise<Scan | null> {
    return this.dataSource.getRepository(Scan).findOneBy({ id, accountId });
  }

  findById(id: string): Promise<Scan | null> {
    return this.dataSource.getRepository(Scan).findOneBy({ id });
  }

  /** Progress and cost so far, only while the scan is still running; false once it is not. */
  async recordProgress(id: string, progress: ScanProgress, costCents: number): Promise<boolean> {
    const [, affected]: [unknown, number] = await this.dataSource.query(
      `UPDATE scans SET progress = $2, cost_cents = $3, updated_at = now() WHERE id = $1 AND status = 'running'`,
      [id, JSON.stringify(progress), costCents],
    );
    return affected > 0;
  }

  /**
   * Moves a running scan to a terminal state. The `status = 'running'` guard makes the first terminal
   * transition win: a late engine result can never overwrite a cancel, and vice versa.
   */
  async finish(manager: EntityManager, id: string, status: Exclude<ScanStatus, 'running'>, fields: FinishFields): Promise<Scan | null> {
    // TypeORM answers an UPDATE with [rows, affected].
    const [rows]: [Array<{ id: string }>, number] = await manager.query(
      `UPDATE scans
          SET status = $2, snapshot_id = COALESCE($3, snapshot_id), error = $4, cost_cents = COALESCE($5, cost_cents),
              progress = COALESCE($6, progress), completed_at = now(), updated_at = now()
        WHERE id = $1 AND status = 'running'
        RETURNING id`,
      [
        id,
        status,
        fields.snapshotId ?? null,
        fields.error ?? null,
        fields.costCents ?? null,
        fields.progress ? JSON.stringify(fields.progress) : null,
      ],
    );
    if (!rows.length) return null;
    return manager.getRepository(Scan).findOneBy({ id });
  }

  /** Running scans not updated for `seconds`, oldest first (ix_scans_running_updated): the reconciler's candidates. */
  findRunningOlderThan(seconds: number, limit: number): Promise<Scan[]> {
    return this.dataSource
      .getRepository(Scan)
      .createQueryBuilder('scan')
      .where("scan.status = 'running' AND scan.updated_at < now() - make_interval(secs => :stale)", { stale: seconds })
      .orderBy('scan.updated_at', 'ASC')
      .limit(limit)
      .getMany();
  }
}
