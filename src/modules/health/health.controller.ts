import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../common/auth/auth.decorator';
import { ApiProblems } from '../../common/openapi/api-problems.decorator';
import { HealthService, type ReadinessReport } from './health.service';

@ApiTags('Health')
@Auth('public')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get('live')
  @ApiOperation({
    operationId: 'getLiveness',
    summary: 'The process is up',
    description:
      'Answers 200 while the process serves HTTP, whatever the state of Postgres and Redis: restart the process when it stops answering.',
  })
  @ApiOkResponse({
    description: 'The process is serving',
    schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } },
  })
  @ApiProblems()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({
    operationId: 'getReadiness',
    summary: 'Postgres and Redis answer',
    description:
      'Answers 200 when Postgres and Redis both answer, else 503 `transient_error` naming the service that does not (also while the process shuts down): send traffic only while it is 200.',
  })
  @ApiOkResponse({
    description: 'Postgres and Redis answer: ready for traffic',
    schema: {
      type: 'object',
      required: ['status', 'checks'],
      properties: {
        status: { type: 'string', enum: ['ok'] },
        checks: { type: 'object', additionalProperties: { type: 'string', enum: ['up'] }, example: { postgres: 'up', redis: 'up' } },
      },
    },
  })
  @ApiProblems({
    code: 'transient_error',
    summary:
      'Postgres or Redis does not answer (the detail names which), or the process is shutting down. Take it out of rotation until it is 200 again.',
    detail: 'Not ready: redis did not answer',
  })
  ready(): Promise<ReadinessReport> {
    return this.health.readiness();
  }
}
