import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ApiError, authenticationInvalid, notFound } from '../../common/errors/api-error';
import { generateRawKey, hashKey, isWellFormedKey, maskKey } from './api-key-format';
import type { ApiKeyDto, CreatedApiKeyDto, RevokedApiKeyDto } from './dto/api-key.dto';
import type { ApiKey } from './entities/api-key.entity';
import { KeysRepository, MAX_ACTIVE_KEYS } from './keys.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LAST_USED_WRITE_INTERVAL_SECONDS = 60;

export interface AuthenticatedKey {
  apiKeyId: string;
  accountId: string;
}

@Injectable()
export class KeysService {
  /** When this process last asked the database to record a key's use; avoids a write per request. */
  private readonly lastTouched = new Map<string, number>();

  constructor(
    private readonly repository: KeysRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(accountId: string, name: string, createdByUserId: string | null): Promise<CreatedApiKeyDto> {
    const raw = generateRawKey(this.config.apiKeyPrefix);
    const key = await this.repository.insertWithinLimit({
      accountId,
      name,
      keyHash: hashKey(raw),
      maskedPrefix: maskKey(raw, this.config.apiKeyPrefix),
      createdByUserId,
    });
    if (!key) {
      throw new ApiError(422, 'key_limit_exceeded', `The account already has ${MAX_ACTIVE_KEYS} active API keys; revoke one before creating another`);
    }
    return { ...toDto(key), key: raw };
  }

  async list(accountId: string): Promise<ApiKeyDto[]> {
    return (await this.repository.listForAccount(accountId)).map(toDto);
  }

  async revoke(accountId: string, id: string): Promise<RevokedApiKeyDto> {
    const key = UUID.test(id) ? await this.repository.revoke(accountId, id) : null;
    if (!key?.revokedAt) throw notFound(`API key ${id} not found`);
    return { id: key.id, revoked_at: key.revokedAt.toISOString() };
  }

  /** Resolves a bearer token to its key; throws the spec's 401s. */
  async authenticate(token: string): Promise<AuthenticatedKey> {
    if (!isWellFormedKey(token, this.config.apiKeyPrefix)) throw authenticationInvalid('The bearer token is not a well-formed API key');
    const key = await this.repository.findByHash(hashKey(token));
    if (!key) throw authenticationInvalid('The API key is not recognised');
    if (key.revokedAt) throw new ApiError(401, 'key_revoked', 'This API key was revoked; create a new one in the dashboard');
    this.recordUse(key.id);
    return { apiKeyId: key.id, accountId: key.accountId };
  }

  private recordUse(id: string): void {
    const now = Date.now();
    if (now - (this.lastTouched.get(id) ?? 0) < LAST_USED_WRITE_INTERVAL_SECONDS * 1000) return;
    this.lastTouched.set(id, now);
    this.repository.touchLastUsed(id, LAST_USED_WRITE_INTERVAL_SECONDS).catch(() => this.lastTouched.delete(id));
  }
}

function toDto(key: ApiKey): ApiKeyDto {
  return {
    id: key.id,
    name: key.name,
    prefix: key.maskedPrefix,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}
