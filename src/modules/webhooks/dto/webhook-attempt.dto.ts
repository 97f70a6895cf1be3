import { ApiProperty } from '@nestjs/swagger';
import type { WebhookAttempt } from '../entities/webhook-attempt.entity';

export class WebhookAttemptDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'date-time' })
  attempted_at: string;

  @ApiProperty({ type: Number, nullable: true, description: 'The HTTP status the endpoint answered; null when none came back' })
  response_status: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why no response came back (timeout, refused address, connection error)' })
  error: string | null;

  @ApiProperty()
  duration_ms: number;
}

export function mapWebhookAttempt(attempt: WebhookAttempt): WebhookAttemptDto {
  return {
    id: attempt.id,
    attempted_at: attempt.attemptedAt.toISOString(),
    response_status: attempt.responseStatus,
    error: attempt.error,
    duration_ms: attempt.durationMs,
  };
}
