import { Global, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { Clock } from './clock';
import { DrainService } from './lifecycle/drain.service';
import { ProblemFilter } from './errors/problem.filter';
import { ProblemsController } from './errors/problems.controller';
import { JsonBodyMiddleware } from './http/json-body.middleware';
import { ApiValidationPipe } from './validation/validation.pipe';

/** The request pipeline every route shares, registered as providers so a test app built from AppModule gets it too. */
@Global()
@Module({
  controllers: [ProblemsController],
  providers: [{ provide: APP_FILTER, useClass: ProblemFilter }, { provide: APP_PIPE, useClass: ApiValidationPipe }, Clock, DrainService],
  exports: [Clock, DrainService],
})
export class CommonModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(JsonBodyMiddleware).forRoutes({ path: '*path', method: RequestMethod.ALL });
  }
}
