import { Module } from '@nestjs/common';
import { MetricsModule } from '../../infra/metrics/metrics.module';
import { WebhookEndpointsModule } from '../webhooks/webhook-endpoints.module';
import { BudgetRepository } from './budget.repository';
import { BudgetService } from './budget.service';

@Module({
  imports: [MetricsModule, WebhookEndpointsModule],
  providers: [BudgetRepository, BudgetService],
  exports: [BudgetService],
})
export class BudgetModule {}
