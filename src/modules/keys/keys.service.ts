import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { KeyCache, type AuthenticatedKey } from './key-cache';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ApiError, authenticationInvalid, notFound } from '../../common/errors/api-error';
import { generateRawKey, hashKey, isWellFormedKey, maskKey } from './api-key-format';
import type { ApiKeyDto } from './dto/api-key.dto';
import type { CreatedApiKeyDto } from './dto/created-api-key.dto';
import type { RevokedApiKeyDto } from './dto/revoked-api-key.dto';
import type { ApiKey } from './entities/api-key.entity';
import { KeysRepository, MAX_ACTIVE_KEYS } from './keys.repository';
import { isUuid } from '../../common/validation/uuid';
import { RedisService } from '../../infra/redis/redis.service';

const LAST_USED_WRITE_INTERVAL_SECONDS = 60;
const KEY_CACHE_TTL_MS = 60_000;
const KEY_CACHE_MAX_ENTRIES = 10_000;
const REVOCATIONS_CHANNEL = 'keys:revoked';

@Injectable()
export class KeysService implements OnModuleInit {
  /** When this process last asked the database to record a key's use; avoids a write per request. */
  private readonly lastTouched = new Map<string, number>();
  private readonly cache = new KeyCache(KEY_CACHE_MAX_ENTRIES, KEY_CACHE_TTL_MS);
  /** The cache is used only while the revocation subscription is live. */
  private cacheLive = false;

  constructor(
    private readonly repository: KeysRepository,
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const subscriber = this.redis.subscriberClient();
    const channel = this.redis.key(REVOCATIONS_CHANNEL);
    const goDark = () => {
      this.cacheLive = false;
      this.cache.clear();
    };
    subscriber.on('message', (from: string, apiKeyId: string) => {
      if (from === channel) this.cache.evictId(apiKeyId);
    });
    subscriber.on('close', goDark);
    subscriber.on('reconnecting', goDark);
    subscriber.on('ready', () => {
      // Resubscription (ioredis does it on reconnect) must complete before the cache is trusted again.
      subscriber.subscribe(channel).then(() => (this.cacheLive = true), goDark);
    });
    await subscriber.subscribe(channel);
    this.cacheLive = true;
  }

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
      throw new ApiError('key_limit_exceeded',
        `The account already has ${MAX_ACTIVE_KEYS} active API keys; revoke one before creating another`,
      );
    }
    return { ...toDto(key), key: raw };
  }

  async list(accountId: string): Promise<ApiKeyDto[]> {
    return (await this.repository.listForAccount(accountId)).map(toDto);
  }

  async revoke(accountId: string, id: string): Promise<RevokedApiKeyDto> {
    const key = isUuid(id) ? await this.repository.revoke(accountId, id) : null;
    if (!key?.revokedAt) throw notFound(`API key ${id} not found`);
    this.cache.evictId(key.id);
    await this.redis.client.publish(this.redis.key(REVOCATIONS_CHANNEL), key.id);
    return { id: key.id, revoked_at: key.revokedAt.toISOString() };
  }

  /** Resolves a bearer token to its key; throws the spec's 401s. */
  async authenticate(token: string): Promise<AuthenticatedKey> {
    if (!isWellFormedKey(token, this.config.apiKeyPrefix)) throw authenticationInvalid('The bearer token is not a well-formed API key');
    const hash = hashKey(token);
    const now = Date.now();
    let key = this.cacheLive ? this.cache.get(hash, now) : undefined;
    if (!key) {
      // Taken before the read: a revocation arriving while it is in flight must not leave its result cached.
      // Going dark clears the cache, so a read that started live and ends live missed no eviction.
      const generation = this.cacheLive ? this.cache.generation : undefined;
      const row = await this.repository.findByHash(hash);
      if (!row) throw authenticationInvalid('The API key is not recognised');
      key = { apiKeyId: row.id, accountId: row.accountId, revoked: row.revokedAt !== null, cachedAt: now };
      if (generation !== undefined && this.cacheLive) this.cache.set(hash, key, generation);
    }
    if (key.revoked) throw new ApiError('key_revoked', 'This API key was revoked; create a new one in the dashboard');
    this.recordUse(key.apiKeyId);
    return { apiKeyId: key.apiKeyId, accountId: key.accountId };
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
