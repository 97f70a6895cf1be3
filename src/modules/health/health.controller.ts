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
  @ApiOperation({ operationId: 'getLiveness', summary: 'The process is up' })
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'string', example: 'ok' } } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ operationId: 'getReadiness', summary: 'Postgres and Redis answer', description: '503 `transient_error` naming the service that does not answer.' })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: { status: { type: 'string', example: 'ok' }, checks: { type: 'object', example: { postgres: 'up', redis: 'up' } } },
    },
  })
  @ApiProblems()
  ready(): Promise<ReadinessReport> {
    return this.health.readiness();
  }
}
