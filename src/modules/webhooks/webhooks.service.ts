import { Inject, Injectable } from '@nestjs/common';
import { ApiError, notFound, validationFailed } from '../../common/errors/api-error';
import { isUuid } from '../../common/validation/uuid';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { CreateWebhookEndpointDto } from './dto/create-webhook-endpoint.dto';
import type { CreatedWebhookEndpointDto } from './dto/created-webhook-endpoint.dto';
import type { UpdateWebhookEndpointDto } from './dto/update-webhook-endpoint.dto';
import { mapWebhookAttempt } from './dto/webhook-attempt.dto';
import type { WebhookDeliveryDetailDto } from './dto/webhook-delivery-detail.dto';
import { mapWebhookDelivery, type WebhookDeliveryDto } from './dto/webhook-delivery.dto';
import { mapWebhookEndpoint, type WebhookEndpointDto } from './dto/webhook-endpoint.dto';
import type { WebhookEndpoint } from './entities/webhook-endpoint.entity';
import { generateWebhookSecret } from './webhook-signature';
import { webhookUrlProblem } from './webhook-url';
import { WebhooksRepository, type EndpointChanges } from './webhooks.repository';

/** Endpoint registration and the delivery record, for the dashboard API and the operator CLI. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly repository: WebhooksRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(accountId: string, body: CreateWebhookEndpointDto): Promise<CreatedWebhookEndpointDto> {
    this.checkUrl(body.url);
    const secret = body.secret ?? generateWebhookSecret();
    const max = this.config.webhooks.maxEndpointsPerAccount;
    const endpoint = await this.repository.insertWithinLimit(
      { accountId, url: body.url, events: [...new Set(body.events)], secret, description: body.description ?? null },
      max,
    );
    if (!endpoint) {
      throw new ApiError(
        'webhook_endpoint_limit_exceeded',
        `The account already has ${max} webhook endpoints; delete one before registering another`,
      );
    }
    return { ...mapWebhookEndpoint(endpoint), secret };
  }

  /** A new generated secret, returned once; the previous one still signs for WEBHOOK_SECRET_ROTATION_GRACE_SECONDS. */
  async rotateSecret(accountId: string, id: string): Promise<CreatedWebhookEndpointDto> {
    const current = await this.owned(accountId, id);
    const secret = generateWebhookSecret();
    const rotated = await this.repository.rotateSecret(accountId, current.id, secret, this.config.webhooks.secretRotationGraceSeconds);
    if (!rotated) throw notFound(`Webhook endpoint ${id} not found`);
    return { ...mapWebhookEndpoint(rotated), secret };
  }

  async list(accountId: string): Promise<WebhookEndpointDto[]> {
    return (await this.repository.listEndpoints(accountId)).map(mapWebhookEndpoint);
  }

  async get(accountId: string, id: string): Promise<WebhookEndpointDto> {
    return mapWebhookEndpoint(await this.owned(accountId, id));
  }

  async update(accountId: string, id: string, body: UpdateWebhookEndpointDto): Promise<WebhookEndpointDto> {
    const current = await this.owned(accountId, id);
    if (body.url !== undefined) this.checkUrl(body.url);
    const changes: EndpointChanges = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
    if (body.events) changes.events = [...new Set(body.events)];
    if (Object.keys(changes).length === 0) return mapWebhookEndpoint(current);
    const updated = await this.repository.updateEndpoint(accountId, current.id, changes);
    if (!updated) throw notFound(`Webhook endpoint ${id} not found`);
    return mapWebhookEndpoint(updated);
  }

  async remove(accountId: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.repository.deleteEndpoint(accountId, id))) throw notFound(`Webhook endpoint ${id} not found`);
  }

  async deliveries(accountId: string, endpointId: string): Promise<WebhookDeliveryDto[]> {
    const endpoint = await this.owned(accountId, endpointId);
    return (await this.repository.listDeliveries(accountId, endpoint.id)).map(mapWebhookDelivery);
  }

  async delivery(accountId: string, id: string): Promise<WebhookDeliveryDetailDto> {
    const delivery = isUuid(id) ? await this.repository.findDelivery(accountId, id) : null;
    if (!delivery) throw notFound(`Webhook delivery ${id} not found`);
    const attempts = await this.repository.listAttempts(delivery.id);
    return { ...mapWebhookDelivery(delivery), attempts: attempts.map(mapWebhookAttempt) };
  }

  private async owned(accountId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = isUuid(id) ? await this.repository.findEndpoint(accountId, id) : null;
    if (!endpoint) throw notFound(`Webhook endpoint ${id} not found`);
    return endpoint;
  }

  private checkUrl(url: string): void {
    const problem = webhookUrlProblem(url, this.config.webhooks.allowLoopbackUrls);
    if (problem) throw validationFailed([{ path: 'url', code: 'invalid', message: problem }]);
  }
}
