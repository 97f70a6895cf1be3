import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AccountIntegration, type IntegrationKind } from './entities/account-integration.entity';
import { Account } from './entities/account.entity';
import { User } from './entities/user.entity';

@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  findByExternalId(externalId: string): Promise<Account | null> {
    return this.dataSource.getRepository(Account).findOneBy({ externalId });
  }

  /** Inserts the account unless it exists; returns the id and whether this call created it. */
  async insertIfAbsent(manager: EntityManager, externalId: string): Promise<{ id: string; created: boolean }> {
    const inserted: Array<{ id: string }> = await manager.query(
      'INSERT INTO accounts (external_id) VALUES ($1) ON CONFLICT (external_id) DO NOTHING RETURNING id',
      [externalId],
    );
    if (inserted.length) return { id: inserted[0].id, created: true };
    const [existing]: Array<{ id: string }> = await manager.query('SELECT id FROM accounts WHERE external_id = $1', [externalId]);
    return { id: existing.id, created: false };
  }

  async upsertUser(accountId: string, subject: string, email: string | null, name: string | null): Promise<string> {
    const [row]: Array<{ id: string }> = await this.dataSource.query(
      `INSERT INTO users (account_id, subject, email, name) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id, subject) DO UPDATE
         SET email = COALESCE(EXCLUDED.email, users.email), name = COALESCE(EXCLUDED.name, users.name)
       RETURNING id`,
      [accountId, subject, email, name],
    );
    return row.id;
  }

  async setIntegration(accountId: string, integration: IntegrationKind, config: Record<string, unknown>): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO account_integrations (account_id, integration, config) VALUES ($1, $2, $3)
       ON CONFLICT (account_id, integration) DO UPDATE SET config = EXCLUDED.config, updated_at = now()`,
      [accountId, integration, JSON.stringify(config)],
    );
  }

  async clearIntegration(accountId: string, integration: IntegrationKind): Promise<boolean> {
    const result = await this.dataSource.getRepository(AccountIntegration).delete({ accountId, integration });
    return (result.affected ?? 0) > 0;
  }

  findExportSettings(accountId: string): Promise<Pick<Account, 'freeTextCustomisation' | 'defaultInstructions' | 'exportLane'> | null> {
    return this.dataSource.getRepository(Account).findOne({
      select: { freeTextCustomisation: true, defaultInstructions: true, exportLane: true },
      where: { id: accountId },
    });
  }

  async updateExportSettings(accountId: string, changes: Partial<Pick<Account, 'freeTextCustomisation' | 'defaultInstructions' | 'exportLane'>>): Promise<void> {
    await this.dataSource.getRepository(Account).update({ id: accountId }, changes);
  }

  findIntegrations(accountId: string): Promise<AccountIntegration[]> {
    return this.dataSource.getRepository(AccountIntegration).findBy({ accountId });
  }
}
