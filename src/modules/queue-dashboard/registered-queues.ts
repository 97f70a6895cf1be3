import type { DiscoveryService } from '@nestjs/core';
import Bull, { type Queue } from 'bull';

/** Every Bull queue the app registered (BullModule.registerQueue), whichever module did it. */
export function registeredQueues(discovery: DiscoveryService): Queue[] {
  const queues = new Set<Queue>();
  for (const wrapper of discovery.getProviders()) {
    const instance: unknown = wrapper.instance;
    if (instance instanceof Bull) queues.add(instance);
  }
  return [...queues].sort((a, b) => a.name.localeCompare(b.name));
}
