import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AppConfig } from '../../config/app-config';

export const DEV_SECRET_FILE = './.data/dashboard-jwt-secret';

/**
 * DASHBOARD_JWT_SECRET, or (when neither it nor a JWKS URL is configured) a development secret kept in
 * ./.data so that the service and `npm run cli -- session:token` agree out of the box. With NODE_ENV=production
 * loadConfig refuses that configuration, so a production process never reaches the development secret.
 */
export function resolveDashboardSecret(config: AppConfig): string | undefined {
  if (config.dashboard.jwtSecret) return config.dashboard.jwtSecret;
  if (config.dashboard.jwksUrl) return undefined;
  if (!existsSync(DEV_SECRET_FILE)) {
    mkdirSync(dirname(DEV_SECRET_FILE), { recursive: true });
    try {
      writeFileSync(DEV_SECRET_FILE, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(DEV_SECRET_FILE, 'utf8').trim();
}
