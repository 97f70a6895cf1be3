import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { compatibleCatalogueEnv, vendorCredentials } from '../../domain/vocabulary/models';
import { ExportTypesService } from '../exports/export-types.service';
import type { AreaListDto } from './dto/area-list.dto';
import type { EngineListDto } from './dto/engine-list.dto';
import type { ExportTypeListDto } from './dto/export-type-list.dto';
import type { JurisdictionListDto } from './dto/jurisdiction-list.dto';
import type { ModelListDto } from './dto/model-list.dto';
import { AREAS } from '../../domain/vocabulary/areas';
import { listPublicEngines } from '../../domain/vocabulary/engines';
import { JURISDICTIONS } from '../../domain/vocabulary/jurisdictions';
import { listModelProviders } from '../../domain/vocabulary/models';

/** The live vocabulary clients read at runtime (spec "Discovery"). */
@Injectable()
export class MetaService {
  private readonly jurisdictions: JurisdictionListDto = {
    data: JURISDICTIONS.map(({ id, label, regulators }) => ({ id, label, regulators: [...regulators] })),
  };
  private readonly areas: AreaListDto = { data: AREAS.map(({ id, label }) => ({ id, label })) };
  private readonly models: ModelListDto;

  constructor(
    private readonly exportTypes: ExportTypesService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const credentials = {
      ...vendorCredentials((vendor) => config.providers[vendor].apiKey),
      ...compatibleCatalogueEnv(config.openaiCompatible),
    };
    this.models = { data: listModelProviders(credentials) };
  }

  engines(): EngineListDto {
    return listPublicEngines();
  }

  modelList(): ModelListDto {
    return this.models;
  }

  jurisdictionList(): JurisdictionListDto {
    return this.jurisdictions;
  }

  areaList(): AreaListDto {
    return this.areas;
  }

  exportTypeList(): ExportTypeListDto {
    return { data: this.exportTypes.list() };
  }
}
