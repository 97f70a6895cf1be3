import { Module } from '@nestjs/common';
import { BudgetModule } from '../budget/budget.module';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';

@Module({
  imports: [BudgetModule],
  providers: [AccountsRepository, AccountsService],
  exports: [AccountsService],
})
export class AccountsModule {}
