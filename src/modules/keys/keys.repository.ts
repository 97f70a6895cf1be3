import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { ApiKey } from './entities/api-key.entity';

export const MAX_ACTIVE_KEYS = 10;

export interface NewApiKey {
  accountId: string;
  name: string;
  keyHash: string;
  maskedPrefix: string;
  createdByUserId: string | null;
}

@Injectable()
export class KeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts the key unless the account already has MAX_ACTIVE_KEYS active ones. The account row lock
   * serialises concurrent creates, so the count cannot be raced past the limit.
   */
  async insertWithinLimit(key: NewApiKey): Promise<ApiKey | null> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [key.accountId]);
      const active = await manager.getRepository(ApiKey).countBy({ accountId: key.accountId, revokedAt: IsNull() });
      if (active >= MAX_ACTIVE_KEYS) return null;
      return manager.getRepository(ApiKey).save(manager.getRepository(ApiKey).create(key));
    });
  }

  listForAccount(accountId: string): Promise<ApiKey[]> {
    return this.dataSource.getRepository(ApiKey).find({ where: { accountId }, order: { createdAt: 'DESC', id: 'ASC' } });
  }

  /** Sets revoked_at once; revoking an already revoked key returns its original revocation time. */
  async revoke(accountId: string, id: string): Promise<ApiKey | null> {
    await this.dataSource.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL', [id, accountId]);
    return this.dataSource.getRepository(ApiKey).findOneBy({ id, accountId });
  }

  findByHash(keyHash: string): Promise<Pick<ApiKey, 'id' | 'accountId' | 'revokedAt'> | null> {
    return this.dataSource.getRepository(ApiKey).findOne({ select: { id: true, accountId: true, revokedAt: true }, where: { keyHash } });
  }

  /** At most one write per key per interval, whatever the request rate. */
  async touchLastUsed(id: string, minIntervalSeconds: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE api_keys SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2))`,
      [id, minIntervalSeconds],
    );
  }
}
