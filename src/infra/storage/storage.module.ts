import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { S3Storage } from './s3-storage';
import { ARTEFACT_STORAGE, FilesystemStorage, type ArtefactStorage } from './storage.service';

/** The artefact store STORAGE_DRIVER names; everything else sees only ArtefactStorage. */
@Global()
@Module({
  providers: [
    {
      provide: ARTEFACT_STORAGE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): ArtefactStorage =>
        config.storageDriver === 's3' ? new S3Storage(config.s3!) : new FilesystemStorage(config),
    },
  ],
  exports: [ARTEFACT_STORAGE],
})
export class StorageModule {}
