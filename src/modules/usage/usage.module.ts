import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { BudgetModule } from '../budget/budget.module';
import { UsageController } from './usage.controller';
import { UsageMiddleware } from './usage.middleware';
import { UsageRecorder } from './usage-recorder.service';
import { UsageRepository } from './usage.repository';
import { UsageService } from './usage.service';

@Module({
  imports: [BudgetModule],
  controllers: [UsageController],
  providers: [UsageRecorder, UsageRepository, UsageService],
  exports: [UsageRecorder],
})
export class UsageModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(UsageMiddleware).forRoutes({ path: 'v1/*path', method: RequestMethod.ALL });
  }
}
