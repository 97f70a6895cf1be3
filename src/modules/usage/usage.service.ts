import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { validationFailed } from '../../common/errors/api-error';
import { BudgetService, type BudgetView } from '../budget/budget.service';
import type { UsageQueryDto } from './dto/usage-query.dto';
import type { UsageReportDto } from './dto/usage-report.dto';
import type { UsageRowDto } from './dto/usage-row.dto';
import { UsageRecorder } from './usage-recorder.service';
import { UsageRepository } from './usage.repository';

const DEFAULT_RANGE_MS = 30 * 24 * 3600 * 1000;

@Injectable()
export class UsageService {
  constructor(
    private readonly repository: UsageRepository,
    private readonly recorder: UsageRecorder,
    private readonly budget: BudgetService,
    private readonly clock: Clock,
  ) {}

  async report(accountId: string, query: UsageQueryDto): Promise<UsageReportDto> {
    const to = query.to ? new Date(query.to) : new Date(this.clock.now());
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_RANGE_MS);
    if (from.getTime() > to.getTime()) {
      throw validationFailed([{ path: 'from', code: 'invalid_range', message: '`from` must not be after `to`' }]);
    }
    const groupBy = query.group_by ?? 'day';
    // This process's own recent counts become visible at once; other processes' within a flush interval.
    await this.recorder.flush();
    const [counts, costs] = await Promise.all([
      this.repository.counts(accountId, from, to, groupBy),
      this.repository.costs(accountId, from, to, groupBy),
    ]);
    const rows = new Map<string | null, UsageRowDto>();
    for (const count of counts) rows.set(count.group, { ...count, cost_cents: 0 });
    for (const [group, cost] of costs) {
      const row = rows.get(group) ?? { group, requests: 0, scans: 0, exports: 0, cost_cents: 0 };
      row.cost_cents = round4(cost);
      rows.set(group, row);
    }
    const data = [...rows.values()].sort((a, b) => String(a.group).localeCompare(String(b.group)));
    const totals = data.reduce(
      (sum, row) => ({
        requests: sum.requests + row.requests,
        scans: sum.scans + row.scans,
        exports: sum.exports + row.exports,
        cost_cents: round4(sum.cost_cents + row.cost_cents),
      }),
      { requests: 0, scans: 0, exports: 0, cost_cents: 0 },
    );
    return { from: from.toISOString(), to: to.toISOString(), group_by: groupBy, data, totals };
  }

  budgetView(accountId: string): Promise<BudgetView> {
    return this.budget.view(accountId);
  }
}

const round4 = (value: number) => Math.round(value * 10000) / 10000;
