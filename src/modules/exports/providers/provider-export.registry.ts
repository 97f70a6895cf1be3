/**
 * Provider export adapters by export provider name (`provider` of export-types.registry.ts).
 */
import { Injectable } from '@nestjs/common';
import { createNotebookAdapter, notebookAdapter } from './notebook.adapter';
import type { ProviderExportAdapter } from './provider-export.types';
import { createVoiceAdapter } from './voice.adapter';

const ADAPTERS: Readonly<Record<string, ProviderExportAdapter>> = {
  notebook: notebookAdapter,
  'voice-briefing': createVoiceAdapter('briefing'),
  'voice-discussion': createVoiceAdapter('discussion'),
};

/**
 * The adapter for a provider export type, or undefined for internal / image providers. Pass `artifactType` for
 * notebook exports to bind it (otherwise the adapter reads `input.artifactType`, then infers it from the options).
 */
export function providerExportAdapter(provider: string, artifactType?: string): ProviderExportAdapter | undefined {
  if (provider === 'notebook' && artifactType !== undefined) return createNotebookAdapter({ artifactType });
  return Object.prototype.hasOwnProperty.call(ADAPTERS, provider) ? ADAPTERS[provider] : undefined;
}

export function isProviderExport(provider: string): boolean {
  return Object.prototype.hasOwnProperty.call(ADAPTERS, provider);
}

/**
 * The adapters as the export worker gets them: injected, so a deployment or a test can put another adapter behind
 * a provider export type with `overrideProvider(ProviderExportRegistry)`.
 */
@Injectable()
export class ProviderExportRegistry {
  adapter(provider: string, artifactType?: string): ProviderExportAdapter | undefined {
    return providerExportAdapter(provider, artifactType);
  }
}
