import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../common/auth/auth.decorator';
import { CurrentPrincipal, type Principal } from '../../common/auth/principal';
import { ApiProblems } from '../../common/openapi/api-problems.decorator';
import { RateLimit } from '../../common/rate-limit/rate-limit.decorator';
import { UsageQueryDto } from './dto/usage-query.dto';
import { BudgetDto } from './dto/budget.dto';
import { UsageReportDto } from './dto/usage-report.dto';
import { UsageService } from './usage.service';

@ApiTags('Usage')
@Auth('bearer-or-dashboard')
@RateLimit('reads')
@Controller('v1/usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @ApiOperation({
    operationId: 'getUsage',
    summary: 'Requests, scans, exports and cost over a range',
    description: 'With a bearer key: the key\'s account. With a dashboard session: the session\'s account.',
  })
  @ApiOkResponse({ type: UsageReportDto })
  @ApiProblems('validation_error')
  report(@CurrentPrincipal() principal: Principal, @Query() query: UsageQueryDto): Promise<UsageReportDto> {
    return this.usage.report(principal.accountId, query);
  }

  @Get('budget')
  @ApiOperation({ operationId: 'getBudget', summary: 'The remaining prepaid budget pool', description: 'Scans and exports draw on this pool, the same one the web UI uses.' })
  @ApiOkResponse({ type: BudgetDto })
  budget(@CurrentPrincipal() principal: Principal): Promise<BudgetDto> {
    return this.usage.budgetView(principal.accountId);
  }
}
