import { fetch, type Dispatcher } from 'undici';
import { createPageDispatcher, RefusedAddressError } from '../../infra/providers/http/page-dispatcher';
import { signWebhook } from './webhook-signature';
import { webhookAddressPolicy, webhookUrlProblem } from './webhook-url';

export interface SendOutcome {
  /** The HTTP status, or null when no response came back. */
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface WebhookMessage {
  url: string;
  /** Every secret that signs: one, or the new and the previous one during a rotation's grace period. */
  secrets: string[];
  /** The `webhook-id`: the delivery id, the same on every attempt. */
  id: string;
  body: string;
}

const USER_AGENT = 'regulatory-scan-service-webhooks/1';
const MAX_ERROR_LENGTH = 500;

/** POSTs one signed attempt; redirects are not followed and every resolved address passes the inward-address guard. */
export class WebhookSender {
  private readonly dispatcher: Dispatcher;

  constructor(private readonly options: { allowLoopback: boolean; timeoutMs: number }) {
    this.dispatcher = createPageDispatcher({ refuseAddress: webhookAddressPolicy(options.allowLoopback) });
  }

  async send(message: WebhookMessage, nowMs: number): Promise<SendOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const problem = webhookUrlProblem(message.url, this.options.allowLoopback);
    if (problem) return { status: null, error: problem, durationMs: 0 };
    const timestamp = Math.floor(nowMs / 1000);
    try {
      const response = await fetch(message.url, {
        method: 'POST',
        dispatcher: this.dispatcher,
        redirect: 'manual',
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': message.id,
          'webhook-timestamp': String(timestamp),
          // Standard Webhooks: several signatures, space-separated; a receiver accepts any that verifies.
          'webhook-signature': message.secrets.map((secret) => signWebhook(secret, message.id, timestamp, message.body)).join(' '),
        },
        body: message.body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      // The response body is not kept: only whether the endpoint took the event.
      await response.body?.cancel().catch(() => undefined);
      return { status: response.status, error: null, durationMs: elapsed() };
    } catch (error) {
      return { status: null, error: describe(error, this.options.timeoutMs).slice(0, MAX_ERROR_LENGTH), durationMs: elapsed() };
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

function describe(error: unknown, timeoutMs: number): string {
  const causes = [error, error instanceof Error ? error.cause : undefined];
  const refused = causes.find((e) => e instanceof RefusedAddressError);
  if (refused) return `refused: ${refused.message}`;
  if (causes.some((e) => e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')))
    return `no response within ${timeoutMs} ms`;
  const cause = causes[1] instanceof Error ? causes[1] : error;
  return cause instanceof Error ? cause.message : String(cause);
}
