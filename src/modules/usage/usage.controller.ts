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
    description:
      "Counts and cost per day, week, month, API key or endpoint over `[from, to)` (default: the last 30 days), with totals. With a bearer key: the key's account. With a dashboard session: the session's account.",
  })
  @ApiOkResponse({ type: UsageReportDto, description: 'One row per group, and the totals' })
  @ApiProblems({
    code: 'validation_error',
    summary: '`from` or `to` is not an ISO 8601 date-time, `from` is after `to` (field code `invalid_range`), or `group_by` is unknown.',
    detail: 'The request has invalid fields; see errors',
    errors: [{ path: 'from', code: 'invalid_range', message: '`from` must not be after `to`' }],
  })
  report(@CurrentPrincipal() principal: Principal, @Query() query: UsageQueryDto): Promise<UsageReportDto> {
    return this.usage.report(principal.accountId, query);
  }

  @Get('budget')
  @ApiOperation({
    operationId: 'getBudget',
    summary: 'The remaining prepaid budget pool',
    description:
      'The pool, what was spent, what running scans hold in reservation and what remains, in US cents. Scans and exports draw on this pool, the same one the web UI uses; a scan the remainder cannot cover is 402 `budget_exhausted`.',
  })
  @ApiOkResponse({ type: BudgetDto, description: "The account's budget pool" })
  budget(@CurrentPrincipal() principal: Principal): Promise<BudgetDto> {
    return this.usage.budgetView(principal.accountId);
  }
}
