import type { NestExpressApplication } from '@nestjs/platform-express';
import { SignJWT } from 'jose';
import request from 'supertest';
import { createHttpApp } from '../../src/app.factory';
import { DataSource } from 'typeorm';
import { uniqueName } from '../setup/test-infra';
import { pollUntil } from './poll';

export interface TestApp {
  app: NestExpressApplication;
  http: () => ReturnType<typeof request>;
  close: () => Promise<void>;
}

/** Boots the real AppModule through the same factory as main.ts (same guards, pipes, filters, middleware). */
export async function bootTestApp(rootModule?: unknown): Promise<TestApp> {
  const app = await createHttpApp(rootModule);
  await app.init();
  const server = app.getHttpServer();
  return { app, http: () => request(server), close: () => app.close() };
}

/**
 * Boots the app with some settings changed. Configuration is read once, at boot, so the environment is restored
 * as soon as the app is up and other tests in the same worker see the run's own settings.
 */
export async function bootTestAppWithEnv(env: Record<string, string>, rootModule?: unknown): Promise<TestApp> {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    return await bootTestApp(rootModule);
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

export interface SessionOptions {
  accountId?: string;
  subject?: string;
  expiresIn?: string | number;
  secret?: string;
  claims?: Record<string, unknown>;
  algorithm?: string;
}

export async function sessionToken(options: SessionOptions = {}): Promise<string> {
  const secret = new TextEncoder().encode(options.secret ?? process.env.DASHBOARD_JWT_SECRET!);
  const jwt = new SignJWT({ account_id: options.accountId ?? uniqueName('acct'), ...options.claims })
    .setProtectedHeader({ alg: options.algorithm ?? 'HS256' })
    .setSubject(options.subject ?? uniqueName('user'))
    .setIssuedAt();
  if (options.expiresIn !== undefined) jwt.setExpirationTime(options.expiresIn);
  else jwt.setExpirationTime('1h');
  return jwt.sign(secret);
}

export const sessionCookie = (token: string) => `dashboard_session=${token}`;

/** A fresh account (its own tenant, as novu's tests do) with a session cookie and, on request, an API key. */
export async function newAccount(testApp: TestApp): Promise<{ accountId: string; cookie: string; apiKey: string; keyId: string }> {
  const accountId = uniqueName('acct');
  const cookie = sessionCookie(await sessionToken({ accountId }));
  const response = await testApp.http().post('/v1/keys').set('Cookie', cookie).send({ name: 'test key' }).expect(201);
  return { accountId, cookie, apiKey: response.body.key, keyId: response.body.id };
}

/** GET of an export's download, with the body collected as raw bytes whatever its type. */
export function downloadExport(testApp: TestApp, id: string, authorization: string) {
  return testApp
    .http()
    .get(`/v1/exports/${id}/download`)
    .set('Authorization', authorization)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
}

/**
 * Waits for an export to leave queued/processing and returns it as GET /v1/exports/{id} shows it. Polled in the
 * database: the reads bucket would not take a tight HTTP poll.
 */
export async function finishedExport(testApp: TestApp, id: string, authorization: string) {
  await pollUntil(
    async () => {
      const [row] = await testApp.app.get(DataSource).query('SELECT status FROM export_jobs WHERE id = $1', [id]);
      return row && !['queued', 'processing'].includes(row.status);
    },
    30000,
    100,
  );
  return (await testApp.http().get(`/v1/exports/${id}`).set('Authorization', authorization).expect(200)).body;
}
