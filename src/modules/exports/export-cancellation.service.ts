import { Injectable } from '@nestjs/common';
import { BudgetService } from '../budget/budget.service';
import type { ExportStatus } from './entities/export-job.entity';
import { ExportsRepository } from './exports.repository';

export const OPERATOR_CANCELLED = 'Cancelled by the operator; no charge was made.';

export class ExportNotCancellableError extends Error {}

/**
 * The operator's cancel (`exports:cancel`): the export becomes `cancelled` and its budget hold is released in one
 * transaction. Nothing else needs to reach the worker: a queued job finds the export cancelled when it starts and
 * does nothing; a running one sees the state change within a second and stops its provider work (exports.processor.ts,
 * watchForCancel), whichever process it runs in.
 */
@Injectable()
export class ExportCancellationService {
  constructor(
    private readonly repository: ExportsRepository,
    private readonly budget: BudgetService,
  ) {}

  async cancel(exportId: string, reason = OPERATOR_CANCELLED): Promise<{ id: string; status: ExportStatus; error: string }> {
    const record = await this.repository.findById(exportId);
    if (!record) throw new ExportNotCancellableError(`export ${exportId} not found`);
    const cancelled = await this.repository.transaction(async (manager) => {
      const moved = await this.repository.transition(
        record.id,
        ['queued', 'processing'],
        'cancelled',
        { error: reason, completed_at: new Date() },
        manager,
      );
      if (moved) await this.budget.release(record.accountId, { type: 'export', id: record.id, apiKeyId: record.apiKeyId }, manager);
      return moved;
    });
    if (!cancelled) {
      const status = (await this.repository.statusOf(record.id)) ?? 'deleted';
      throw new ExportNotCancellableError(`export ${exportId} is already ${status} and cannot be cancelled`);
    }
    return { id: record.id, status: 'cancelled', error: reason };
  }
}
