import { collectDefaultMetrics, Registry } from 'prom-client';

let processRegistry: Registry | undefined;

/**
 * CPU, memory, event-loop lag, GC and handles of this process: one set per process, however many Nest apps it
 * boots (the e2e tests boot dozens in one jest worker). collectDefaultMetrics starts observers that are never
 * stopped, so it runs once; each app's MetricsService appends these to its own registry's exposition.
 */
export function processMetricsRegistry(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}
