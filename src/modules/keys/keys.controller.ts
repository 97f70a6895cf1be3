import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags, ApiCreatedResponse } from '@nestjs/swagger';
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
  @ApiOperation({ operationId: 'createApiKey', summary: 'Create an API key', description: 'Returns the raw key exactly once. At most 10 active keys per account.' })
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  @ApiProblems('validation_error', 'key_limit_exceeded', 'invalid_request')
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    return this.keys.create(principal.accountId, body.name, principal.kind === 'dashboard' ? principal.userId : null);
  }

  @Get()
  @ApiOperation({ operationId: 'listApiKeys', summary: 'List API keys (masked)' })
  @ApiOkResponse({ type: ApiKeyListDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<ApiKeyListDto> {
    return { data: await this.keys.list(principal.accountId) };
  }

  @Post(':id/revoke')
  @HttpCode(200)
  @ApiOperation({ operationId: 'revokeApiKey', summary: 'Revoke an API key', description: 'Takes effect immediately, in every process.' })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: RevokedApiKeyDto })
  @ApiProblems('not_found')
  revoke(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<RevokedApiKeyDto> {
    return this.keys.revoke(principal.accountId, id);
  }
}
