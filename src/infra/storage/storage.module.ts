import { Global, Module } from '@nestjs/common';
import { ARTEFACT_STORAGE, FilesystemStorage } from './storage.service';

@Global()
@Module({ providers: [{ provide: ARTEFACT_STORAGE, useClass: FilesystemStorage }], exports: [ARTEFACT_STORAGE] })
export class StorageModule {}
