import { APP_CONFIG, type AppConfig } from '../src/config/app-config';
import { openSse } from './support/sse';
import { bootTestApp, newAccount, type TestApp } from './support/test-app';

// Offline scans report only the work they did (issue 15): real counts, no page read claimed, and verification
// that says it checked the regulatory calendar's own entries and sources.

type Progress = { type: 'progress'; phase: string; percent: number; message: string };
type Item = {
  verification: {
    status: string;
    passes: Array<{ pass: string; note: string; checked?: { basis: string; description: string; pages: unknown[] } }>;
  };
};

describe('offline scan progress', () => {
  let t: TestApp;
  let config: AppConfig;
  let baseUrl: string;
  let savedStep: number;

  beforeAll(async () => {
    t = await bootTestApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    config = t.app.get(APP_CONFIG);
    savedStep = config.offlineStepMs;
  });
  afterEach(() => {
    config.offlineStepMs = savedStep;
  });
  afterAll(() => t.close());

  async function watchedScan(
    body: object,
  ): Promise<{ progress: Progress[]; data: Record<string, unknown> & { items: Item[]; trends: unknown[] } }> {
    config.offlineStepMs = 60;
    const { apiKey } = await newAccount(t);
    const created = await t.http().post('/v1/scans?mode=async').set('Authorization', `Bearer ${apiKey}`).send(body).expect(202);
    const stream = await openSse(baseUrl, created.body.stream_url, { Authorization: `Bearer ${apiKey}` });
    await stream.ended;
    const complete = stream.events.find((e) => e.type === 'complete') as { snapshotId: string };
    expect(complete).toBeDefined();
    const snapshot = await t.http().get(`/v1/snapshots/${complete.snapshotId}`).set('Authorization', `Bearer ${apiKey}`).expect(200);
    return { progress: stream.events.filter((e): e is Progress => e.type === 'progress'), data: snapshot.body.data };
  }

  it('names real counts at real phase boundaries and claims no page read', async () => {
    const { progress, data } = await watchedScan({
      jurisdictions: ['EU', 'UK', 'US'],
      areas: ['Payments', 'AML / KYC', 'Prudential', 'Consumer protection'],
      horizon: 36,
      engine: 'v4',
      realist: true,
      auditor: true,
    });
    const meta = data._meta as { matched_count: number; selected_count: number };
    const byPhase = new Map(progress.map((p) => [p.phase, p]));
    const percents = progress.map((p) => p.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));

    // No phase that does no work offline, and nothing claims a page or source was read or a briefing sub-edited.
    expect(byPhase.has('read')).toBe(false);
    expect(byPhase.has('sub-edit')).toBe(false);
    for (const { message } of progress) {
      expect(message).not.toMatch(/\bRead \d|official source|Sub-edited/i);
    }

    expect(byPhase.get('search')!.message).toBe(
      `Matched ${meta.matched_count} calendar instrument(s) within the horizon, kept ${meta.selected_count}`,
    );
    expect(meta.matched_count).toBeGreaterThan(meta.selected_count);
    expect(byPhase.get('analyse')!.message).toBe(`Composed ${data.items.length} item(s) into ${data.trends.length} trend(s)`);

    const count = (status: string) => data.items.filter((i) => i.verification.status === status).length;
    expect(byPhase.get('verify')!.message).toBe(
      `Checked ${data.items.length} item(s) with the realist and auditor passes against the regulatory calendar's own entries and sources ` +
        `(offline; no page was read): ${count('verified')} verified, ${count('unverified')} unverified, ${count('disputed')} disputed`,
    );
    for (const item of data.items) {
      expect(item.verification.passes.map((p) => p.pass)).toEqual(['realist', 'auditor']);
      for (const pass of item.verification.passes) {
        expect(pass.checked).toEqual({
          basis: 'calendar',
          description: "Checked against the regulatory calendar's own entries and sources (offline; no page was read)",
          pages: [],
        });
      }
    }
  });

  it('says so when no verification pass was asked for', async () => {
    const { progress, data } = await watchedScan({ jurisdictions: ['EU'], areas: ['Payments'], horizon: 12 });
    const verify = progress.find((p) => p.phase === 'verify');
    expect(verify?.message).toBe('No verification pass requested');
    expect(data.items.every((i) => i.verification.passes.length === 0)).toBe(true);
  });
});
