import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../common/auth/auth.decorator';
import { CurrentPrincipal, type Principal } from '../../common/auth/principal';
import { ApiProblems } from '../../common/openapi/api-problems.decorator';
import { RateLimit } from '../../common/rate-limit/rate-limit.decorator';
import { WebhookDeliveryDetailDto } from './dto/webhook-delivery-detail.dto';
import { WebhookDeliveryListDto } from './dto/webhook-delivery-list.dto';
import { WebhooksService } from './webhooks.service';

@ApiTags('Webhooks')
@Auth('dashboard')
@RateLimit('reads')
@Controller('v1/webhooks')
export class WebhookDeliveriesController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get('endpoints/:id/deliveries')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: "List an endpoint's deliveries",
    description: 'The latest 100 deliveries to the endpoint, newest first, with their status and attempt count.',
  })
  @ApiParam({ name: 'id', format: 'uuid', description: 'The endpoint id' })
  @ApiOkResponse({ type: WebhookDeliveryListDto, description: 'Deliveries, newest first' })
  @ApiProblems({
    code: 'not_found',
    summary: "No endpoint with this id in the session's account.",
    detail: 'Webhook endpoint 5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f not found',
  })
  async list(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<WebhookDeliveryListDto> {
    return { data: await this.webhooks.deliveries(principal.accountId, id) };
  }

  @Get('deliveries/:id')
  @ApiOperation({
    operationId: 'getWebhookDelivery',
    summary: 'Get a webhook delivery with its attempts',
    description: 'The delivery id is the `webhook-id` header the endpoint received; `attempts` lists every try, oldest first.',
  })
  @ApiParam({ name: 'id', format: 'uuid', description: 'The delivery id (the `webhook-id` header)' })
  @ApiOkResponse({ type: WebhookDeliveryDetailDto, description: 'The delivery and its attempts' })
  @ApiProblems({
    code: 'not_found',
    summary: "No delivery with this id in the session's account.",
    detail: 'Webhook delivery 5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f not found',
  })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<WebhookDeliveryDetailDto> {
    return this.webhooks.delivery(principal.accountId, id);
  }
}
