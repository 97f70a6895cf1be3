import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { UsageGroup } from './dto/usage-query.dto';

/** The api_key_id recorded for requests made with a dashboard session (the column is part of the primary key). */
export const NO_API_KEY = '00000000-0000-0000-0000-000000000000';
const MAX_ROWS_PER_INSERT = 500;

/** Requests of one account, key, endpoint and status in one minute. */
export interface UsageCount {
  accountId: string;
  apiKeyId: string;
  endpoint: string;
  status: number;
  minuteStart: string;
  requests: number;
  scans: number;
  exports: number;
}

export interface GroupedCounts {
  group: string | null;
  requests: number;
  scans: number;
  exports: number;
}

const TIME_GROUPS: Record<string, { unit: string; format: string }> = {
  day: { unit: 'day', format: 'YYYY-MM-DD' },
  week: { unit: 'week', format: 'YYYY-MM-DD' },
  month: { unit: 'month', format: 'YYYY-MM' },
};

// Which endpoint a ledger reference's money is attributed to in endpoint reports.
const ENDPOINT_OF_REFERENCE = `CASE reference_type WHEN 'scan' THEN 'POST /v1/scans' WHEN 'export' THEN 'POST /v1/exports' ELSE 'operator' END`;

@Injectable()
export class UsageRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Adds counts to their minute rows (created on first use), in batches of MAX_ROWS_PER_INSERT rows. */
  async addCounts(counts: readonly UsageCount[]): Promise<void> {
    for (let i = 0; i < counts.length; i += MAX_ROWS_PER_INSERT) {
      const rows = counts.slice(i, i + MAX_ROWS_PER_INSERT);
      const params: unknown[] = [];
      const values = rows.map((row) => {
        params.push(row.accountId, row.apiKeyId, row.endpoint, row.status, row.minuteStart, row.requests, row.scans, row.exports);
        const n = params.length;
        return `($${n - 7}, $${n - 6}, $${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
      });
      await this.dataSource.query(
        `INSERT INTO usage_counters (account_id, api_key_id, endpoint, status, minute_start, requests, scans, exports)
         VALUES ${values.join(', ')}
         ON CONFLICT (account_id, api_key_id, endpoint, status, minute_start) DO UPDATE
           SET requests = usage_counters.requests + EXCLUDED.requests,
               scans = usage_counters.scans + EXCLUDED.scans,
               exports = usage_counters.exports + EXCLUDED.exports`,
        params,
      );
    }
  }

  /** Request counts in [from, to), grouped; scoped to one account (index ix_usage_counters_account_minute). */
  async counts(accountId: string, from: Date, to: Date, groupBy: UsageGroup): Promise<GroupedCounts[]> {
    const group = this.groupExpression(groupBy, 'minute_start', 'api_key_id', 'endpoint');
    const rows: Array<{ grp: string | null; requests: string; scans: string; exports: string }> = await this.dataSource.query(
      `SELECT ${group} AS grp, SUM(requests) AS requests, SUM(scans) AS scans, SUM(exports) AS exports
         FROM usage_counters
        WHERE account_id = $1 AND minute_start >= $2 AND minute_start < $3
        GROUP BY 1 ORDER BY 1`,
      [accountId, from, to],
    );
    return rows.map((row) => ({ group: row.grp, requests: Number(row.requests), scans: Number(row.scans), exports: Number(row.exports) }));
  }

  /** Money charged in [from, to) (settlements and direct charges), grouped like the counts. */
  async costs(accountId: string, from: Date, to: Date, groupBy: UsageGroup): Promise<Map<string | null, number>> {
    const group = this.groupExpression(groupBy, 'created_at', `COALESCE(api_key_id, '${NO_API_KEY}')`, ENDPOINT_OF_REFERENCE);
    const rows: Array<{ grp: string | null; cost: string }> = await this.dataSource.query(
      `SELECT ${group} AS grp, SUM(amount_cents) AS cost
         FROM budget_ledger
        WHERE account_id = $1 AND kind IN ('settlement', 'charge') AND created_at >= $2 AND created_at < $3
        GROUP BY 1`,
      [accountId, from, to],
    );
    return new Map(rows.map((row) => [row.grp, Number(row.cost)]));
  }

  private groupExpression(groupBy: UsageGroup, timeColumn: string, keyColumn: string, endpointColumn: string): string {
    const time = TIME_GROUPS[groupBy];
    if (time) return `to_char(date_trunc('${time.unit}', ${timeColumn} AT TIME ZONE 'UTC'), '${time.format}')`;
    if (groupBy === 'api_key') return `NULLIF(${keyColumn}::text, '${NO_API_KEY}')`;
    return endpointColumn;
  }
}
