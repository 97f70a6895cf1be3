import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { MetricsService } from '../src/infra/metrics/metrics.service';

const docker = (file: string) => readFileSync(join(__dirname, '..', 'docker', file), 'utf8');
const HISTOGRAM_SUFFIXES = ['_bucket', '_sum', '_count'];

describe('monitoring configuration in docker/', () => {
  it('the dashboard only queries series the service exposes', async () => {
    const dashboard = JSON.parse(docker('grafana/regscan-dashboard.json'));
    const expressions: string[] = dashboard.panels.flatMap((panel: { targets?: Array<{ expr: string }> }) =>
      (panel.targets ?? []).map((target) => target.expr),
    );
    expect(expressions.length).toBeGreaterThan(10);
    const metrics = await new MetricsService().registry.getMetricsAsJSON();
    const exposed = new Set(
      metrics.flatMap((metric) =>
        String(metric.type) === 'histogram' ? HISTOGRAM_SUFFIXES.map((suffix) => `${metric.name}${suffix}`) : [metric.name],
      ),
    );
    const used = new Set(expressions.flatMap((expr) => expr.match(/\bregscan_[a-z_]+\b/g) ?? []));
    expect(used.size).toBeGreaterThan(10);
    for (const name of used) expect(exposed).toContain(name);
    for (const panel of dashboard.panels.filter((p: { type: string }) => p.type !== 'row'))
      expect(panel.datasource.uid).toBe('regscan-prometheus');
  });

  it('Prometheus scrapes the API and worker services on the metrics port', () => {
    const config = parse(docker('prometheus/prometheus.yml'));
    const targets = config.scrape_configs.map((job: { dns_sd_configs: Array<{ names: string[]; port: number }> }) =>
      job.dns_sd_configs.map((sd) => `${sd.names.join(',')}:${sd.port}`).join(' '),
    );
    expect(targets).toEqual(['api:9464', 'worker:9464']);
  });

  it('compose starts the same services as before unless the monitoring profile is asked for', () => {
    const compose = parse(docker('compose.yaml'));
    const always = Object.entries(compose.services as Record<string, { profiles?: string[] }>)
      .filter(([, service]) => !service.profiles)
      .map(([name]) => name);
    expect(always).toEqual(['api', 'worker', 'postgres', 'redis', 'minio']);
    expect(compose.services.prometheus.profiles).toEqual(['monitoring']);
    expect(compose.services.grafana.profiles).toEqual(['monitoring']);
    // The metrics port stays inside the compose network.
    expect(JSON.stringify(compose.services.api.ports ?? [])).not.toContain('9464');
  });
});
