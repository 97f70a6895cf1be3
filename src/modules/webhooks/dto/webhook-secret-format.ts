import { ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { isWebhookSecret } from '../webhook-signature';

@ValidatorConstraint({ name: 'webhookSecret' })
export class WebhookSecretFormat implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && isWebhookSecret(value);
  }

  defaultMessage(): string {
    return 'secret must be whsec_ followed by the base64 of 24 to 64 bytes';
  }
}
