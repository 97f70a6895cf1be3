import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { BudgetService } from '../budget/budget.service';
import { AccountsRepository } from './accounts.repository';
import type { AccountIntegration, IntegrationKind } from './entities/account-integration.entity';
import type { ExportLane } from './entities/account.entity';

/** The account's export settings, set by the operator (docs/decisions.md, Account export settings). */
export interface AccountExportSettings {
  freeTextCustomisation: boolean;
  defaultInstructions: string | null;
  exportLane: ExportLane;
}

export interface SessionIdentity {
  accountExternalId: string;
  subject: string;
  email?: string;
  name?: string;
}

/** Accounts and users are provisioned just in time, on first sight of a verified session or CLI command. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly repository: AccountsRepository,
    private readonly budget: BudgetService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The account's internal id, creating the account (and opening its budget pool) on first sight. */
  async ensureAccount(externalId: string): Promise<string> {
    const existing = await this.repository.findByExternalId(externalId);
    if (existing) return existing.id;
    return this.repository.transaction(async (manager) => {
      const { id, created } = await this.repository.insertIfAbsent(manager, externalId);
      if (created) await this.budget.openPool(manager, id, this.config.defaultAccountBudgetCents);
      return id;
    });
  }

  async ensureSessionUser(identity: SessionIdentity): Promise<{ accountId: string; userId: string }> {
    const accountId = await this.ensureAccount(identity.accountExternalId);
    const userId = await this.repository.upsertUser(accountId, identity.subject, identity.email ?? null, identity.name ?? null);
    return { accountId, userId };
  }

  async findAccountId(externalId: string): Promise<string | null> {
    return (await this.repository.findByExternalId(externalId))?.id ?? null;
  }

  setIntegration(accountId: string, integration: IntegrationKind, config: Record<string, unknown>): Promise<void> {
    return this.repository.setIntegration(accountId, integration, config);
  }

  clearIntegration(accountId: string, integration: IntegrationKind): Promise<boolean> {
    return this.repository.clearIntegration(accountId, integration);
  }

  /** The settings of an account; those of a new account when it no longer exists (its export then fails on its own). */
  async exportSettings(accountId: string): Promise<AccountExportSettings> {
    const found = await this.repository.findExportSettings(accountId);
    return {
      freeTextCustomisation: found?.freeTextCustomisation ?? true,
      defaultInstructions: found?.defaultInstructions ?? null,
      exportLane: found?.exportLane ?? 'realtime',
    };
  }

  async updateExportSettings(accountId: string, changes: Partial<AccountExportSettings>): Promise<AccountExportSettings> {
    await this.repository.updateExportSettings(accountId, changes);
    return this.exportSettings(accountId);
  }

  integrations(accountId: string): Promise<AccountIntegration[]> {
    return this.repository.findIntegrations(accountId);
  }
}
