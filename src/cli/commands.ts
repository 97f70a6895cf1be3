import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';
import type { INestApplicationContext } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { resolveDashboardSecret } from '../modules/auth/dashboard-secret';
import { AccountsService } from '../modules/accounts/accounts.service';
import { INTEGRATIONS, type IntegrationKind } from '../modules/accounts/entities/account-integration.entity';
import { BudgetService } from '../modules/budget/budget.service';
import { KeysService } from '../modules/keys/keys.service';
import { notebookIntegrationConfigProblem } from '../modules/exports/provider-exports/notebooklm-enterprise';
import { ApiError } from '../common/errors/api-error';
import { WEBHOOK_EVENTS, type WebhookEventType } from '../modules/webhooks/webhook-events';
import { isWebhookSecret } from '../modules/webhooks/webhook-signature';
import { WebhooksService } from '../modules/webhooks/webhooks.service';
import type { AccountExportSettings } from '../modules/accounts/accounts.service';
import { DEFAULT_INSTRUCTIONS_MAX_CHARS, EXPORT_LANES, type ExportLane } from '../modules/accounts/entities/account.entity';
import { ExportCancellationService, ExportNotCancellableError } from '../modules/exports/export-cancellation.service';
import { longerThan } from '../common/validation/char-count';
import { isStorableText } from '../common/validation/storable-text';
import { isUuid } from '../common/validation/uuid';

export class UsageError extends Error {}

export const USAGE = `Usage: npm run cli -- <command> [options]

  session:token       --account <id> --user <sub> [--ttl 3600] [--email <e>] [--name <n>] [--operator]
                      prints a dashboard session JWT signed with DASHBOARD_JWT_SECRET;
                      --operator adds the claim operator: true (opens the queue dashboard at /admin/queues)
  keys:create         --account <id> --name <name>      prints a new raw API key (once)
  budget:set          --account <id> --cents <n>        sets the account's budget pool
  budget:add          --account <id> --cents <n>        adds to (or, negative, removes from) the pool
  integrations:set    --account <id> --integration notebook|voicePodcast --config <json>
                      notebook: {"apiKey","baseUrl"} (job protocol), or {"kind":"notebooklm-enterprise",
                      "project","location","serviceAccountKey"|"accessToken"} (Google; see README)
  integrations:clear  --account <id> --integration notebook|voicePodcast
  webhooks:create     --account <id> --url <https url> --events <e1,e2> [--secret <whsec_…>] [--description <d>]
                      registers a webhook endpoint; prints it as JSON with its signing secret (once)
  webhooks:list       --account <id>                    prints the account's endpoints as JSON (no secrets)
  webhooks:delete     --account <id> --id <endpoint id>
  webhooks:rotate-secret --account <id> --id <endpoint id>
                      prints the endpoint with a new signing secret (once); the old one also signs for the grace period
  customisation:set   --account <id> [--free-text on|off] [--default-instructions <text> | --clear-default-instructions]
                      off: export requests' instructions are replaced by the default (dropped without one);
                      the default (at most ${DEFAULT_INSTRUCTIONS_MAX_CHARS} characters) also fills requests that send none
  export-lane:set     --account <id> --lane realtime|batch
                      batch: the account's AI-generated exports queue behind real-time work
  exports:cancel      --export <export id>              cancels a queued or running export (any account)

<id> is the account's external id (the identity provider's account_id claim).`;

interface Command {
  /** A flag (boolean) reaches `run` as the value 'true' when given. */
  options: Record<string, { type: 'string' | 'boolean' }>;
  required: string[];
  needsDatabase: boolean;
  run(values: Record<string, string>, deps: { config: AppConfig; context?: INestApplicationContext }): Promise<string>;
}

const ACCOUNT = { account: { type: 'string' as const } };

export const COMMANDS: Record<string, Command> = {
  'session:token': {
    options: {
      ...ACCOUNT,
      user: { type: 'string' },
      ttl: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      operator: { type: 'boolean' },
    },
    required: ['account', 'user'],
    needsDatabase: false,
    async run(values, { config }) {
      const ttl = values.ttl === undefined ? 3600 : wholeNumber('ttl', values.ttl, 1, 31 * 24 * 3600);
      const secret = resolveDashboardSecret(config);
      if (!secret) throw new UsageError('DASHBOARD_JWT_SECRET: not set (sessions are verified through DASHBOARD_JWKS_URL; mint them at the identity provider)');
      const claims: Record<string, string | boolean> = { account_id: values.account };
      if (values.email) claims.email = values.email;
      if (values.name) claims.name = values.name;
      if (values.operator === 'true') claims.operator = true;
      const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(values.user).setIssuedAt().setExpirationTime(`${ttl}s`);
      if (config.dashboard.issuer) jwt.setIssuer(config.dashboard.issuer);
      if (config.dashboard.audience) jwt.setAudience(config.dashboard.audience);
      return jwt.sign(new TextEncoder().encode(secret));
    },
  },
  'keys:create': {
    options: { ...ACCOUNT, name: { type: 'string' } },
    required: ['account', 'name'],
    needsDatabase: true,
    async run(values, { context }) {
      if (values.name.length > 200) throw new UsageError('--name: at most 200 characters');
      const accountId = await context!.get(AccountsService).ensureAccount(values.account);
      const key = await context!.get(KeysService).create(accountId, values.name, null);
      return key.key;
    },
  },
  'budget:set': {
    options: { ...ACCOUNT, cents: { type: 'string' } },
    required: ['account', 'cents'],
    needsDatabase: true,
    async run(values, { context }) {
      const cents = wholeNumber('cents', values.cents, 0, 1e11);
      const accountId = await context!.get(AccountsService).ensureAccount(values.account);
      return JSON.stringify(await context!.get(BudgetService).setPool(accountId, cents, 'operator budget:set'));
    },
  },
  'budget:add': {
    options: { ...ACCOUNT, cents: { type: 'string' } },
    required: ['account', 'cents'],
    needsDatabase: true,
    async run(values, { context }) {
      const cents = wholeNumber('cents', values.cents, -1e11, 1e11);
      const accountId = await context!.get(AccountsService).ensureAccount(values.account);
      return JSON.stringify(await context!.get(BudgetService).credit(accountId, cents, 'operator budget:add'));
    },
  },
  'integrations:set': {
    options: { ...ACCOUNT, integration: { type: 'string' }, config: { type: 'string' } },
    required: ['account', 'integration', 'config'],
    needsDatabase: true,
    async run(values, { context }) {
      const integration = integrationKind(values.integration);
      let config: unknown;
      try {
        config = JSON.parse(values.config);
      } catch {
        throw new UsageError('--config: not valid JSON');
      }
      if (!config || typeof config !== 'object' || Array.isArray(config)) throw new UsageError('--config: must be a JSON object');
      const problem = integration === 'notebook' ? notebookIntegrationConfigProblem(config as Record<string, unknown>) : undefined;
      if (problem) throw new UsageError(`--config: ${problem}`);
      const accounts = context!.get(AccountsService);
      await accounts.setIntegration(await accounts.ensureAccount(values.account), integration, config as Record<string, unknown>);
      return `integration ${integration} set for account ${values.account}`;
    },
  },
  'integrations:clear': {
    options: { ...ACCOUNT, integration: { type: 'string' } },
    required: ['account', 'integration'],
    needsDatabase: true,
    async run(values, { context }) {
      const integration = integrationKind(values.integration);
      const accounts = context!.get(AccountsService);
      const accountId = await accounts.findAccountId(values.account);
      const cleared = accountId ? await accounts.clearIntegration(accountId, integration) : false;
      return cleared ? `integration ${integration} cleared for account ${values.account}` : `account ${values.account} had no ${integration} integration`;
    },
  },
  'webhooks:create': {
    options: {
      ...ACCOUNT,
      url: { type: 'string' },
      events: { type: 'string' },
      secret: { type: 'string' },
      description: { type: 'string' },
    },
    required: ['account', 'url', 'events'],
    needsDatabase: true,
    async run(values, { context }) {
      const events = webhookEvents(values.events);
      if (values.secret !== undefined && !isWebhookSecret(values.secret))
        throw new UsageError('--secret: must be whsec_ followed by the base64 of 24 to 64 bytes');
      if ((values.description ?? '').length > 200) throw new UsageError('--description: at most 200 characters');
      const accountId = await context!.get(AccountsService).ensureAccount(values.account);
      const body = { url: values.url, events, secret: values.secret, description: values.description };
      try {
        return JSON.stringify(await context!.get(WebhooksService).create(accountId, body));
      } catch (error) {
        if (error instanceof ApiError && error.errors.length > 0)
          throw new UsageError(error.errors.map((e) => `--${e.path}: ${e.message}`).join('; '));
        throw error;
      }
    },
  },
  'webhooks:list': {
    options: ACCOUNT,
    required: ['account'],
    needsDatabase: true,
    async run(values, { context }) {
      const accountId = await context!.get(AccountsService).findAccountId(values.account);
      return JSON.stringify(accountId ? await context!.get(WebhooksService).list(accountId) : []);
    },
  },
  'webhooks:delete': {
    options: { ...ACCOUNT, id: { type: 'string' } },
    required: ['account', 'id'],
    needsDatabase: true,
    async run(values, { context }) {
      const accountId = await knownAccountId(context!, values.account);
      await context!.get(WebhooksService).remove(accountId, values.id);
      return `webhook endpoint ${values.id} deleted`;
    },
  },
  'webhooks:rotate-secret': {
    options: { ...ACCOUNT, id: { type: 'string' } },
    required: ['account', 'id'],
    needsDatabase: true,
    async run(values, { context }) {
      const accountId = await knownAccountId(context!, values.account);
      return JSON.stringify(await context!.get(WebhooksService).rotateSecret(accountId, values.id));
    },
  },
  // Account export settings and operator cancel: docs/decisions.md, "Account export settings".
  'customisation:set': {
    options: {
      ...ACCOUNT,
      'free-text': { type: 'string' },
      'default-instructions': { type: 'string' },
      'clear-default-instructions': { type: 'boolean' },
    },
    required: ['account'],
    needsDatabase: true,
    async run(values, { context }) {
      const changes: Partial<AccountExportSettings> = {};
      if (values['free-text'] !== undefined) changes.freeTextCustomisation = onOff('free-text', values['free-text']);
      const text = values['default-instructions'];
      if (text !== undefined && values['clear-default-instructions'] === 'true')
        throw new UsageError('--default-instructions and --clear-default-instructions: give one, not both');
      if (text !== undefined) changes.defaultInstructions = defaultInstructions(text);
      if (values['clear-default-instructions'] === 'true') changes.defaultInstructions = null;
      if (Object.keys(changes).length === 0)
        throw new UsageError('customisation:set: nothing to change; give --free-text, --default-instructions or --clear-default-instructions');
      const accounts = context!.get(AccountsService);
      return exportSettingsJson(await accounts.updateExportSettings(await accounts.ensureAccount(values.account), changes));
    },
  },
  'export-lane:set': {
    options: { ...ACCOUNT, lane: { type: 'string' } },
    required: ['account', 'lane'],
    needsDatabase: true,
    async run(values, { context }) {
      if (!(EXPORT_LANES as readonly string[]).includes(values.lane)) throw new UsageError(`--lane: must be ${EXPORT_LANES.join(' or ')}`);
      const accounts = context!.get(AccountsService);
      const accountId = await accounts.ensureAccount(values.account);
      return exportSettingsJson(await accounts.updateExportSettings(accountId, { exportLane: values.lane as ExportLane }));
    },
  },
  'exports:cancel': {
    options: { export: { type: 'string' } },
    required: ['export'],
    needsDatabase: true,
    async run(values, { context }) {
      if (!isUuid(values.export)) throw new UsageError('--export: must be an export id (a UUID)');
      try {
        return JSON.stringify(await context!.get(ExportCancellationService).cancel(values.export));
      } catch (error) {
        // Not a usage error (exit 1): the id was well formed, the export is unknown or already final.
        if (error instanceof ExportNotCancellableError) throw new Error(error.message);
        throw error;
      }
    },
  },
};

/** Parses `<command> --flag value ...`; throws UsageError with a precise message. */
export function parseCommand(argv: string[]): { name: string; command: Command; values: Record<string, string> } {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') throw new UsageError('');
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command "${name}"`);
  const values: Record<string, string | undefined> = {};
  try {
    const parsed = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: false }).values;
    for (const [option, value] of Object.entries(parsed)) values[option] = value === true ? 'true' : (value as string | undefined);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  for (const option of command.required) {
    if (values[option] === undefined || values[option]!.trim() === '') throw new UsageError(`${name}: --${option} is required`);
  }
  return { name, command, values: values as Record<string, string> };
}

/** The internal id of an account the operator names by its external id; an unknown one ends the command. */
async function knownAccountId(context: INestApplicationContext, externalId: string): Promise<string> {
  const accountId = await context.get(AccountsService).findAccountId(externalId);
  if (!accountId) throw new Error(`account ${externalId} not found`);
  return accountId;
}

function wholeNumber(option: string, raw: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(raw)) throw new UsageError(`--${option}: expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new UsageError(`--${option}: must be between ${min} and ${max}`);
  return value;
}

function webhookEvents(raw: string): WebhookEventType[] {
  const events = raw
    .split(',')
    .map((event) => event.trim())
    .filter(Boolean);
  const unknown = events.find((event) => !(WEBHOOK_EVENTS as readonly string[]).includes(event));
  if (unknown) throw new UsageError(`--events: unknown event "${unknown}" (known: ${WEBHOOK_EVENTS.join(', ')})`);
  if (events.length === 0) throw new UsageError('--events: name at least one event');
  return events as WebhookEventType[];
}

function onOff(option: string, raw: string): boolean {
  if (raw !== 'on' && raw !== 'off') throw new UsageError(`--${option}: must be on or off, got "${raw}"`);
  return raw === 'on';
}

function defaultInstructions(raw: string): string {
  if (raw.trim() === '') throw new UsageError('--default-instructions: must not be empty (use --clear-default-instructions to remove it)');
  if (longerThan(raw, DEFAULT_INSTRUCTIONS_MAX_CHARS))
    throw new UsageError(`--default-instructions: at most ${DEFAULT_INSTRUCTIONS_MAX_CHARS} characters`);
  if (!isStorableText(raw)) throw new UsageError('--default-instructions: must not contain NUL characters or unpaired surrogates');
  return raw;
}

function exportSettingsJson(settings: AccountExportSettings): string {
  return JSON.stringify({
    free_text_customisation: settings.freeTextCustomisation,
    default_instructions: settings.defaultInstructions,
    export_lane: settings.exportLane,
  });
}

function integrationKind(raw: string): IntegrationKind {
  if (!(INTEGRATIONS as readonly string[]).includes(raw)) throw new UsageError(`--integration: must be one of ${INTEGRATIONS.join(', ')}`);
  return raw as IntegrationKind;
}
