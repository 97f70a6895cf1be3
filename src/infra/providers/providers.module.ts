import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { createProviderRegistry } from './provider-registry';

/** Injection token of the ProviderRegistry (provider-registry.ts): override it to put other adapters behind the ports. */
export const PROVIDER_REGISTRY = Symbol('PROVIDER_REGISTRY');

/** The adapters of every paid provider (LLM, search, page fetch, translation), built once from the configuration. */
@Module({
  providers: [
    {
      provide: PROVIDER_REGISTRY,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        createProviderRegistry(config.providers, {
          fetchProxyUrl: config.fetchProxyUrl,
          openaiCompatible: config.openaiCompatible,
          readerBaseUrl: config.pageFetch.readerBaseUrl,
          readerApiKey: config.pageFetch.readerApiKey,
          allowPrivateNetwork: config.pageFetch.allowPrivateNetwork,
        }),
    },
  ],
  exports: [PROVIDER_REGISTRY],
})
export class ProvidersModule {}
