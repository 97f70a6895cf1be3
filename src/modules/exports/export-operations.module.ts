import { Module } from '@nestjs/common';
import { BudgetModule } from '../budget/budget.module';
import { ExportCancellationService } from './export-cancellation.service';
import { ExportsRepository } from './exports.repository';

/** What the operator CLI needs of exports, without the queue worker and the HTTP layer of ExportsModule. */
@Module({
  imports: [BudgetModule],
  providers: [ExportsRepository, ExportCancellationService],
  exports: [ExportCancellationService],
})
export class ExportOperationsModule {}
