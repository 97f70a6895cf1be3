import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../common/auth/auth.decorator';
import { CurrentPrincipal, type Principal } from '../../common/auth/principal';
import { ApiProblems } from '../../common/openapi/api-problems.decorator';
import { RateLimit } from '../../common/rate-limit/rate-limit.decorator';
import { CreateWebhookEndpointDto } from './dto/create-webhook-endpoint.dto';
import { CreatedWebhookEndpointDto } from './dto/created-webhook-endpoint.dto';
import { UpdateWebhookEndpointDto } from './dto/update-webhook-endpoint.dto';
import { WebhookEndpointListDto } from './dto/webhook-endpoint-list.dto';
import { WebhookEndpointDto } from './dto/webhook-endpoint.dto';
import { WebhooksService } from './webhooks.service';

const ENDPOINT_ID = ApiParam({ name: 'id', format: 'uuid', description: 'The endpoint id (from POST or GET /v1/webhooks/endpoints)' });
const ENDPOINT_NOT_FOUND = {
  code: 'not_found' as const,
  summary: "No endpoint with this id in the session's account.",
  detail: 'Webhook endpoint 5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f not found',
};
const INVALID_ENDPOINT = {
  code: 'validation_error' as const,
  summary:
    '`url` is not https or reaches a private, loopback or metadata address; `events` names an unknown event; `secret` is not `whsec_`+base64.',
  detail: 'The request has invalid fields; see errors',
  errors: [{ path: 'url', code: 'invalid', message: 'url must reach a public address (10.0.0.1: private)' }],
};

@ApiTags('Webhooks')
@Auth('dashboard')
@Controller('v1/webhooks/endpoints')
export class WebhookEndpointsController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @RateLimit('mutations')
  @ApiOperation({
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint',
    description:
      'Events are POSTed to `url`, signed as Standard Webhooks describes (`webhook-id`, `webhook-timestamp`, `webhook-signature`). The response carries the signing `secret` exactly once.',
  })
  @ApiBody({
    type: CreateWebhookEndpointDto,
    examples: {
      scans: {
        summary: 'Finished scans and exports',
        value: { url: 'https://hooks.example.com/rgs', events: ['scan.completed', 'export.completed'] },
      },
    },
  })
  @ApiCreatedResponse({ type: CreatedWebhookEndpointDto, description: 'The endpoint, with its signing secret (shown only this once)' })
  @ApiProblems(INVALID_ENDPOINT, {
    code: 'webhook_endpoint_limit_exceeded',
    summary: 'The account already has WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT (20) endpoints; delete one first.',
    detail: 'The account already has 20 webhook endpoints; delete one before registering another',
  })
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateWebhookEndpointDto): Promise<CreatedWebhookEndpointDto> {
    return this.webhooks.create(principal.accountId, body);
  }

  @Get()
  @RateLimit('reads')
  @ApiOperation({
    operationId: 'listWebhookEndpoints',
    summary: 'List webhook endpoints',
    description: "The account's endpoints, newest first; secrets are never shown again.",
  })
  @ApiOkResponse({ type: WebhookEndpointListDto, description: "The account's endpoints" })
  async list(@CurrentPrincipal() principal: Principal): Promise<WebhookEndpointListDto> {
    return { data: await this.webhooks.list(principal.accountId) };
  }

  @Get(':id')
  @RateLimit('reads')
  @ApiOperation({
    operationId: 'getWebhookEndpoint',
    summary: 'Get a webhook endpoint',
    description: 'The endpoint, whether it is enabled and, if not, why. The secret is never shown again.',
  })
  @ENDPOINT_ID
  @ApiOkResponse({ type: WebhookEndpointDto, description: 'The endpoint' })
  @ApiProblems(ENDPOINT_NOT_FOUND)
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<WebhookEndpointDto> {
    return this.webhooks.get(principal.accountId, id);
  }

  @Patch(':id')
  @RateLimit('mutations')
  @ApiOperation({
    operationId: 'updateWebhookEndpoint',
    summary: 'Change, disable or re-enable a webhook endpoint',
    description:
      'A disabled endpoint gets no new deliveries; `enabled: true` re-enables one (also one the service disabled) and clears `disabled_reason`.',
  })
  @ENDPOINT_ID
  @ApiBody({ type: UpdateWebhookEndpointDto, examples: { pause: { summary: 'Stop deliveries', value: { enabled: false } } } })
  @ApiOkResponse({ type: WebhookEndpointDto, description: 'The endpoint as changed' })
  @ApiProblems(ENDPOINT_NOT_FOUND, INVALID_ENDPOINT)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: UpdateWebhookEndpointDto,
  ): Promise<WebhookEndpointDto> {
    return this.webhooks.update(principal.accountId, id, body);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @RateLimit('mutations')
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: "Rotate a webhook endpoint's signing secret",
    description:
      'Generates a new secret and returns it, this once. For WEBHOOK_SECRET_ROTATION_GRACE_SECONDS (24 h) after the rotation every attempt carries two signatures in `webhook-signature`, by the new and by the previous secret, so receivers can switch secrets at their own pace; `previous_secret_expires_at` says until when. Rotating again within that period retires the older secret at once.',
  })
  @ENDPOINT_ID
  @ApiOkResponse({ type: CreatedWebhookEndpointDto, description: 'The endpoint, with its new signing secret (shown only this once)' })
  @ApiProblems(ENDPOINT_NOT_FOUND)
  rotateSecret(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<CreatedWebhookEndpointDto> {
    return this.webhooks.rotateSecret(principal.accountId, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @RateLimit('mutations')
  @ApiOperation({
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    description: 'Removes the endpoint with its deliveries; pending deliveries are not sent.',
  })
  @ENDPOINT_ID
  @ApiNoContentResponse({ description: 'The endpoint is deleted (no body)' })
  @ApiProblems(ENDPOINT_NOT_FOUND)
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.webhooks.remove(principal.accountId, id);
  }
}
