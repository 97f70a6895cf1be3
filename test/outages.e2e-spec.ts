import { startTcpProxy } from './support/tcp-proxy';
import { bootTestApp, newAccount, type TestApp } from './support/test-app';

type Proxy = Awaited<ReturnType<typeof startTcpProxy>>;

// Postgres and Redis reached through proxies the test can cut: a real outage, not a mock.
describe('backing service outages', () => {
  let t: TestApp;
  let postgres: Proxy;
  let redis: Proxy;
  let apiKey: string;
  const saved = { db: process.env.DATABASE_URL!, redis: process.env.REDIS_URL! };

  beforeAll(async () => {
    const db = new URL(saved.db);
    const rd = new URL(saved.redis);
    postgres = await startTcpProxy({ host: db.hostname, port: Number(db.port || 5432) });
    redis = await startTcpProxy({ host: rd.hostname, port: Number(rd.port || 6379) });
    db.host = `127.0.0.1:${postgres.port}`;
    rd.host = `127.0.0.1:${redis.port}`;
    process.env.DATABASE_URL = db.toString();
    process.env.REDIS_URL = rd.toString();
    t = await bootTestApp();
    ({ apiKey } = await newAccount(t));
  });
  afterAll(async () => {
    postgres.restore();
    redis.restore();
    await t.close();
    await Promise.all([postgres.close(), redis.close()]);
    process.env.DATABASE_URL = saved.db;
    process.env.REDIS_URL = saved.redis;
  });

  it('answers 503 transient_error while Postgres is unreachable, and recovers', async () => {
    postgres.cut();
    try {
      const response = await t.http().get('/v1/usage/budget').set('Authorization', `Bearer ${apiKey}`);
      expect(response.status).toBe(503);
      expect(response.body).toMatchObject({ code: 'transient_error', status: 503 });
      expect(response.headers['x-request-id']).toMatch(/^req_/);
      expect(JSON.stringify(response.body)).not.toMatch(/ECONN|at .*\.js/);
      const ready = await t.http().get('/health/ready').expect(503);
      expect(ready.body.detail).toMatch(/postgres/);
    } finally {
      postgres.restore();
    }
    await t.http().get('/v1/usage/budget').set('Authorization', `Bearer ${apiKey}`).expect(200);
  });

  it('answers 503 transient_error while Redis is unreachable, and recovers', async () => {
    redis.cut();
    try {
      const response = await t.http().get('/v1/meta/areas').set('Authorization', `Bearer ${apiKey}`);
      expect(response.status).toBe(503);
      expect(response.body.code).toBe('transient_error');
      const ready = await t.http().get('/health/ready').expect(503);
      expect(ready.body.detail).toMatch(/redis/);
    } finally {
      redis.restore();
    }
    const deadline = Date.now() + 10000;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) {
      status = (await t.http().get('/v1/meta/areas').set('Authorization', `Bearer ${apiKey}`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
  });
});
