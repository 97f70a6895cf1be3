import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { Clock } from '../../common/clock';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { WEBHOOKS_QUEUE } from '../../infra/queues/queue-names';
import { RetryLaterError } from '../../infra/queues/retry-backoff';
import { webhookRetryDelayMs } from './webhook-backoff';
import { WebhookOutboxService } from './webhook-outbox.service';
import { WebhookSender, type SendOutcome } from './webhook-sender';
import { webhookJobId, type WebhookJobData } from './webhooks.jobs';
import { WebhooksRepository } from './webhooks.repository';

/** A delivery younger than this may still be on its way into the queue (inserted, then queued after commit). */
const ENQUEUE_GRACE_SECONDS = 10;
const RECONCILE_BATCH = 200;

/**
 * Sends webhook deliveries from the `webhooks` queue. The attempt count in PostgreSQL decides when a delivery gives
 * up, so a job re-queued by the reconciler does not start its retries over.
 */
@Injectable()
export class WebhooksProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhooksProcessor');
  private readonly sender: WebhookSender;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @InjectQueue(WEBHOOKS_QUEUE) private readonly queue: Queue<WebhookJobData>,
    private readonly repository: WebhooksRepository,
    private readonly outbox: WebhookOutboxService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.sender = new WebhookSender({ allowLoopback: config.webhooks.allowLoopbackUrls, timeoutMs: config.webhooks.timeoutMs });
  }

  onApplicationBootstrap(): void {
    if (this.config.appRole === 'api') return;
    this.queue.on('error', (error: Error) => this.logger.warn({ err: error.message }, 'webhooks queue: Redis error (Bull reconnects)'));
    this.queue
      .process(this.config.webhooks.workerConcurrency, (job) => this.handle(job))
      .catch((error: unknown) => {
        this.logger.error({ err: String(error) }, 'webhooks queue stopped processing');
      });
    this.timer = setInterval(() => {
      this.reconcile().catch((error: unknown) => this.logger.warn({ err: String(error) }, 'webhook reconciliation skipped a round'));
    }, this.config.reconcileIntervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sender.close();
  }

  /** One attempt; throws RetryLaterError (with the back-off delay) when another attempt is due. */
  async handle(job: Job<WebhookJobData>): Promise<void> {
    const found = await this.repository.findForSending(job.data.deliveryId);
    if (!found || found.delivery.status !== 'pending') return;
    const { delivery, endpoint } = found;
    if (endpoint.disabledAt) return this.repository.abandon(delivery.id);
    const attemptedAt = new Date(this.clock.now());
    const outcome = await this.sender.send(
      { url: endpoint.url, secret: endpoint.secret, id: delivery.id, body: JSON.stringify(delivery.payload) },
      attemptedAt.getTime(),
    );
    const attempt = { attemptedAt, responseStatus: outcome.status, error: outcome.error, durationMs: outcome.durationMs };
    const attemptNumber = delivery.attemptCount + 1;
    if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) {
      await this.repository.recordAttempt(delivery.id, attempt, { status: 'delivered' });
      return;
    }
    const finalAttempt = attemptNumber >= this.config.webhooks.maxAttempts;
    const delayMs = webhookRetryDelayMs(attemptNumber, this.config.webhooks.backoffMs);
    await this.repository.recordAttempt(
      delivery.id,
      attempt,
      finalAttempt ? { status: 'failed' } : { status: 'pending', nextAttemptAt: new Date(attemptedAt.getTime() + delayMs) },
    );
    await this.disableIfFailingForDays(endpoint.id, attemptedAt, outcome);
    if (finalAttempt) return;
    throw new RetryLaterError(`attempt ${attemptNumber} failed: ${outcome.error ?? `HTTP ${outcome.status}`}`, delayMs);
  }

  private async disableIfFailingForDays(endpointId: string, now: Date, outcome: SendOutcome): Promise<void> {
    const seconds = this.config.webhooks.disableAfterSeconds;
    const period = seconds % 86400 === 0 ? `${seconds / 86400} days` : `${seconds} seconds`;
    const last = outcome.error ?? `HTTP ${outcome.status}`;
    const reason = `Every delivery failed for more than ${period} (last: ${last}); re-enable with PATCH once the endpoint works`;
    if (await this.repository.disableIfFailingSince(endpointId, new Date(now.getTime() - seconds * 1000), reason.slice(0, 500))) {
      this.logger.warn({ endpointId }, 'webhook endpoint disabled: its deliveries kept failing');
    }
  }

  /** Re-queues pending deliveries whose job is gone or was given up (a crash after commit, Redis lost, a dead worker). */
  async reconcile(): Promise<number> {
    let requeued = 0;
    for (const { id } of await this.repository.pendingOlderThan(ENQUEUE_GRACE_SECONDS, RECONCILE_BATCH)) {
      const job = await this.queue.getJob(webhookJobId(id));
      const state = job ? await job.getState() : 'missing';
      if (state !== 'missing' && state !== 'completed' && state !== 'failed') continue;
      await job?.remove();
      await this.outbox.enqueue([id]);
      this.logger.warn({ deliveryId: id, state }, 'webhook delivery had no live job: re-queued');
      requeued++;
    }
    return requeued;
  }
}
