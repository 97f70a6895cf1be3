/**
 * Provider export adapters by export provider name (`provider` of export-types.registry.ts), over the voice and
 * notebook ports of the ProviderRegistry (src/infra/providers).
 */
import { Inject, Injectable } from '@nestjs/common';
import type { NotebookPort, VoicePort } from '../../../infra/providers/ports';
import type { ProviderRegistry } from '../../../infra/providers/provider-registry';
import { PROVIDER_REGISTRY } from '../../../infra/providers/providers.module';
import { createNotebookAdapter } from './notebook.adapter';
import type { ProviderExportAdapter } from './provider-export.types';
import { createVoiceAdapter } from './voice.adapter';

/**
 * The adapter for a provider export type over the given ports, or undefined for internal / image providers. Pass
 * `artifactType` for notebook exports to bind it (otherwise the adapter reads `input.artifactType`, then infers it
 * from the options).
 */
function adapterOver(ports: { voice?: VoicePort; notebook?: NotebookPort }, provider: string, artifactType?: string): ProviderExportAdapter | undefined {
  if (provider === 'notebook') return createNotebookAdapter(artifactType === undefined ? {} : { artifactType }, ports.notebook);
  if (provider === 'voice-briefing') return createVoiceAdapter('briefing', {}, ports.voice);
  if (provider === 'voice-discussion') return createVoiceAdapter('discussion', {}, ports.voice);
  return undefined;
}

/** The adapter over the default ports (the vendors' public wire formats). */
export function providerExportAdapter(provider: string, artifactType?: string): ProviderExportAdapter | undefined {
  return adapterOver({}, provider, artifactType);
}

/**
 * The adapters as the export worker gets them: over the injected ProviderRegistry's voice and notebook ports, so a
 * deployment or a test can put other adapters behind them (`overrideProvider(PROVIDER_REGISTRY)`), or override this
 * registry itself.
 */
@Injectable()
export class ProviderExportRegistry {
  constructor(@Inject(PROVIDER_REGISTRY) private readonly providers: ProviderRegistry) {}

  adapter(provider: string, artifactType?: string): ProviderExportAdapter | undefined {
    return adapterOver({ voice: this.providers.voice(), notebook: this.providers.notebook() }, provider, artifactType);
  }
}
