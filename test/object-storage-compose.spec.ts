import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '../src/config/app-config';

interface ComposeService {
  image?: string;
  profiles?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  volumes?: string[];
}

const compose = parse(readFileSync(join(__dirname, '..', 'docker', 'compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
/** `${NAME:-default}` and `${NAME:?message}` as compose resolves them with nothing set in the shell. */
const resolveDefaults = (env: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(env).map(([name, value]) => [
      name,
      String(value).replace(/\$\{[A-Z_]+:([-?])([^}]*)\}/g, (_m, kind, text) => (kind === '-' ? text : 'x'.repeat(32))),
    ]),
  );

describe('docker compose runs MinIO with the service configured for it', () => {
  it('starts MinIO by default, with a health check the service containers wait for', () => {
    const minio = compose.services.minio!;
    expect(minio.image).toMatch(/^minio\/minio:/);
    expect(minio.profiles).toBeUndefined();
    expect(minio.healthcheck?.test).toBeDefined();
    for (const name of ['api', 'worker']) expect(compose.services[name]!.depends_on?.minio).toEqual({ condition: 'service_healthy' });
  });

  it.each(['api', 'worker'])('configures %s for the MinIO bucket, a configuration production start-up accepts', (name) => {
    const env = resolveDefaults(compose.services[name]!.environment!);
    const config = loadConfig({ ...env, NODE_ENV: 'production' });
    expect(config.storageDriver).toBe('s3');
    expect(config.s3).toMatchObject({ endpoint: 'http://minio:9000', forcePathStyle: true, createBucket: true });
    expect(config.s3!.credentials?.accessKeyId).toBe(resolveDefaults(compose.services.minio!.environment!).MINIO_ROOT_USER);
  });
});
