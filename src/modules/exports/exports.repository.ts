import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, type FindOptionsSelect, In } from 'typeorm';
import { ExportJob, type ExportStatus } from './entities/export-job.entity';

const LIST_COLUMNS: FindOptionsSelect<ExportJob> = {
  id: true,
  status: true,
  artifactType: true,
  provider: true,
  snapshotId: true,
  options: true,
  createdAt: true,
  completedAt: true,
  costCents: true,
  error: true,
  resultMime: true,
  resultFilename: true,
  resultSizeBytes: true,
  storageKey: true,
  purgedAt: true,
  effectiveLocale: true,
  localeProvenance: true,
  renderedBy: true,
};

@Injectable()
export class ExportsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  insert(job: Partial<ExportJob>): Promise<unknown> {
    return this.dataSource.getRepository(ExportJob).insert(job as never);
  }

  findOwned(accountId: string, id: string): Promise<ExportJob | null> {
    return this.dataSource.getRepository(ExportJob).findOneBy({ id, accountId });
  }

  findById(id: string): Promise<ExportJob | null> {
    return this.dataSource.getRepository(ExportJob).findOneBy({ id });
  }

  /**
   * Newest first, scoped to the account (ix_export_jobs_account_created / _account_snapshot), with the columns a
   * list item is built from (the storage key and purge time decide its download link).
   */
  list(accountId: string, filter: { snapshotId?: string; statuses?: ExportStatus[]; limit: number }): Promise<ExportJob[]> {
    return this.dataSource.getRepository(ExportJob).find({
      select: LIST_COLUMNS,
      where: {
        accountId,
        ...(filter.snapshotId ? { snapshotId: filter.snapshotId } : {}),
        ...(filter.statuses ? { status: In(filter.statuses) } : {}),
      },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: filter.limit,
    });
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Moves a job between states only from the expected ones; false when another transition won. */
  async transition(
    id: string,
    from: ExportStatus[],
    to: ExportStatus,
    fields: Partial<Record<string, unknown>> = {},
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const columns = Object.keys(fields);
    const sets = columns.map((column, i) => `"${column}" = $${i + 3}`);
    const [, affected]: [unknown, number] = await manager.query(
      `UPDATE export_jobs SET status = $2, updated_at = now()${sets.length ? `, ${sets.join(', ')}` : ''} WHERE id = $1 AND status = ANY($${columns.length + 3})`,
      [id, to, ...columns.map((column) => fields[column]), from],
    );
    return affected > 0;
  }

  /** The state of one job (primary key), or null once it is deleted. */
  async statusOf(id: string): Promise<ExportStatus | null> {
    const [row]: Array<{ status: ExportStatus }> = await this.dataSource.query('SELECT status FROM export_jobs WHERE id = $1', [id]);
    return row?.status ?? null;
  }

  async delete(id: string): Promise<void> {
    await this.dataSource.getRepository(ExportJob).delete({ id });
  }

  /** Completed jobs whose bytes outlived the retention window (ix_export_jobs_retention). */
  findExpired(retentionSeconds: number, limit: number): Promise<ExportJob[]> {
    return this.dataSource
      .getRepository(ExportJob)
      .createQueryBuilder('job')
      .where("job.status = 'completed' AND job.purged_at IS NULL AND job.completed_at < now() - make_interval(secs => :retention)", {
        retention: retentionSeconds,
      })
      .limit(limit)
      .getMany();
  }

  /** Queued or processing jobs not updated for `seconds`, oldest first (ix_export_jobs_active_updated). */
  findActiveOlderThan(seconds: number, limit: number): Promise<ExportJob[]> {
    return this.dataSource
      .getRepository(ExportJob)
      .createQueryBuilder('job')
      .where("job.status IN ('queued', 'processing') AND job.updated_at < now() - make_interval(secs => :seconds)", { seconds })
      .orderBy('job.updated_at', 'ASC')
      .limit(limit)
      .getMany();
  }

  async markPurged(id: string): Promise<void> {
    await this.dataSource.query('UPDATE export_jobs SET purged_at = now() WHERE id = $1', [id]);
  }
}
