import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { transientError } from '../../common/errors/api-error';
import { DrainService } from '../../common/lifecycle/drain.service';
import { RedisService } from '../../infra/redis/redis.service';

export interface ReadinessReport {
  status: 'ok';
  checks: { postgres: 'up'; redis: 'up' };
}

const CHECK_TIMEOUT_MS = 2000;

@Injectable()
export class HealthService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly redis: RedisService,
    private readonly drain: DrainService,
  ) {}

  async readiness(): Promise<ReadinessReport> {
    // A load balancer stops sending work here before the server stops accepting it.
    if (this.drain.draining) throw transientError('Not ready: this process is shutting down');
    const [postgres, redis] = await Promise.all([probe(() => this.dataSource.query('SELECT 1')), probe(() => this.redis.client.ping())]);
    const down = [!postgres && 'postgres', !redis && 'redis'].filter(Boolean);
    if (down.length) throw transientError(`Not ready: ${down.join(' and ')} did not answer`);
    return { status: 'ok', checks: { postgres: 'up', redis: 'up' } };
  }
}

async function probe(check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([check(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS)))]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
