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
/** The retention sweep: how often, and how many rows one statement deletes (short transactions, short locks). */
const PRUNE_INTERVAL_MS = 10 * 60_000;
const PRUNE_BATCH = 1000;
const PRUNE_MAX_BATCHES = 50;

/**
 * Sends webhook deliveries from the `webhooks` queue. The attempt count in PostgreSQL decides when a delivery gives
 * up, so a job re-queued by the reconciler does not start its retries over.
 */
@Injectable()
export class WebhooksProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhooksProcessor');
  private readonly sender: WebhookSender;
  private readonly timers: NodeJS.Timeout[] = [];

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
    const every = (ms: number, work: () => Promise<unknown>, what: string) => {
      const timer = setInterval(() => work().catch((error: unknown) => this.logger.warn({ err: String(error) }, `${what} skipped a round`)), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.config.reconcileIntervalMs, () => this.reconcile(), 'webhook reconciliation');
    every(PRUNE_INTERVAL_MS, () => this.pruneDeliveries(), 'webhook retention sweep');
  }

  async onApplicationShutdown(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.sender.close();
  }

  /** One attempt; throws RetryLaterError (with the back-off delay) when another attempt is due. */
  async handle(job: Job<WebhookJobData>): Promise<void> {
    const found = await this.repository.findForSending(job.data.deliveryId);
    if (!found || found.delivery.status !== 'pending') return;
    const { delivery, endpoint } = found;
    if (endpoint.disabledAt) return this.repository.abandon(delivery.id);
    const attemptedAt = new Date(this.clock.now());
    const previousSigns = endpoint.previousSecret !== null && (endpoint.previousSecretExpiresAt?.getTime() ?? 0) > attemptedAt.getTime();
    const secrets = previousSigns ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
    const outcome = await this.sender.send(
      { url: endpoint.url, secrets, id: delivery.id, body: JSON.stringify(delivery.payload) },
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

  /**
   * Deletes finished deliveries (and their attempts) older than WEBHOOK_DELIVERY_RETENTION_DAYS, in batches. Every
   * worker runs it; concurrent sweeps skip each other's rows. Pending deliveries are kept whatever their age.
   */
  async pruneDeliveries(): Promise<number> {
    let pruned = 0;
    for (let batch = 0; batch < PRUNE_MAX_BATCHES; batch++) {
      const deleted = await this.repository.pruneFinished(this.config.webhooks.deliveryRetentionDays, PRUNE_BATCH);
      pruned += deleted;
      if (deleted < PRUNE_BATCH) break;
    }
    if (pruned > 0) this.logger.log({ pruned }, 'webhook deliveries past retention deleted');
    return pruned;
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
