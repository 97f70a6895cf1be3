import { Module } from '@nestjs/common';
import { BudgetRepository } from './budget.repository';
import { BudgetService } from './budget.service';

@Module({
  providers: [BudgetRepository, BudgetService],
  exports: [BudgetService],
})
export class BudgetModule {}
