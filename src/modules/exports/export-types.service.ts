import { Injectable } from '@nestjs/common';
import { EXPORT_TYPES, findExportType, listPublicExportTypes, type ExportTypeEntry, type PublicExportType } from './export-types/export-types.registry';

/** The registry of export types, owned by the exports module and read by discovery. */
@Injectable()
export class ExportTypesService {
  list(): PublicExportType[] {
    return listPublicExportTypes();
  }

  find(provider: string, artifactType: string): ExportTypeEntry | undefined {
    return findExportType(provider, artifactType);
  }

  all(): readonly ExportTypeEntry[] {
    return EXPORT_TYPES;
  }
}
