import { ProviderFailure } from '../../../infra/providers/provider-errors';

/** Reading an account integration's settings (`account_integrations.config`) for the provider exports. */
export function configString(config: Record<string, unknown>, key: string): string | undefined {
  const value = config[key];
  return typeof value === 'string' && value.trim().length > 0 ? value.trim() : undefined;
}

/** Validates an http(s) base URL from an integration config and strips trailing slashes. */
export function configBaseUrl(provider: string, value: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ProviderFailure(`${provider}: the integration's baseUrl is not a valid URL`, provider, null);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ProviderFailure(`${provider}: the integration's baseUrl must be http or https`, provider, null);
  }
  return value.replace(/\/+$/, '');
}
