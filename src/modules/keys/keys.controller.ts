import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../common/auth/auth.decorator';
import { RateLimit } from '../../common/rate-limit/rate-limit.decorator';
import { CurrentPrincipal, type Principal } from '../../common/auth/principal';
import { ApiProblems } from '../../common/openapi/api-problems.decorator';
import { ApiKeyListDto } from './dto/api-key-list.dto';
import { CreatedApiKeyDto } from './dto/created-api-key.dto';
import { RevokedApiKeyDto } from './dto/revoked-api-key.dto';
import { CreateApiKeyDto } from './dto/create-api-key.dto';
import { KeysService } from './keys.service';

@ApiTags('Keys')
@Auth('dashboard')
@RateLimit('keys')
@Controller('v1/keys')
export class KeysController {
  constructor(private readonly keys: KeysService) {}

  @Post()
  @ApiOperation({
    operationId: 'createApiKey',
    summary: 'Create an API key',
    description:
      "Creates a key for the session's account and returns the raw key (`key`) exactly once: store it now, listings only show its masked prefix. At most 10 active keys per account.",
  })
  @ApiBody({ type: CreateApiKeyDto, examples: { ci: { summary: 'A key for a CI pipeline', value: { name: 'CI pipeline' } } } })
  @ApiCreatedResponse({ type: CreatedApiKeyDto, description: 'The new key, with the raw key in `key` (shown only this once)' })
  @ApiProblems(
    {
      code: 'validation_error',
      summary: '`name` is missing, empty, longer than 200 characters or not a string.',
      detail: 'The request has invalid fields; see errors',
      errors: [{ path: 'name', code: 'required', message: 'name is required' }],
    },
    {
      code: 'key_limit_exceeded',
      summary: 'The account already has 10 active keys; revoke one first.',
      detail: 'The account already has 10 active API keys; revoke one before creating another',
    },
  )
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    return this.keys.create(principal.accountId, body.name, principal.kind === 'dashboard' ? principal.userId : null);
  }

  @Get()
  @ApiOperation({
    operationId: 'listApiKeys',
    summary: 'List API keys (masked)',
    description:
      "The account's keys, active and revoked, with their masked prefix and when each was last used. Raw keys are never shown again.",
  })
  @ApiOkResponse({ type: ApiKeyListDto, description: "The account's keys" })
  async list(@CurrentPrincipal() principal: Principal): Promise<ApiKeyListDto> {
    return { data: await this.keys.list(principal.accountId) };
  }

  @Post(':id/revoke')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description:
      'Takes effect immediately, in every process: the key then answers 401 `key_revoked`. Revoking a revoked key returns its revocation again.',
  })
  @ApiParam({ name: 'id', format: 'uuid', description: 'The key id (from POST or GET /v1/keys)' })
  @ApiOkResponse({ type: RevokedApiKeyDto, description: 'The key is revoked' })
  @ApiProblems({
    code: 'not_found',
    summary: "No key with this id in the session's account.",
    detail: 'API key 5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f not found',
  })
  revoke(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<RevokedApiKeyDto> {
    return this.keys.revoke(principal.accountId, id);
  }
}
