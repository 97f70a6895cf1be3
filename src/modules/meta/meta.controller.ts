import { Controller, Get } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../common/auth/auth.decorator';
import { RateLimit } from '../../common/rate-limit/rate-limit.decorator';
import { AreaListDto } from './dto/area-list.dto';
import { EngineListDto } from './dto/engine-list.dto';
import { ExportTypeListDto } from './dto/export-type-list.dto';
import { JurisdictionListDto } from './dto/jurisdiction-list.dto';
import { ModelListDto } from './dto/model-list.dto';
import { OptionSchemaDto } from './dto/option-schema.dto';
import { MetaService } from './meta.service';

@ApiTags('Discovery')
@ApiExtraModels(OptionSchemaDto)
@Auth('bearer')
@RateLimit('reads')
@Controller('v1/meta')
export class MetaController {
  constructor(private readonly meta: MetaService) {}

  @Get('engines')
  @ApiOperation({
    operationId: 'listEngines',
    summary: 'Engines and allowed horizons',
    description:
      'The engines a scan may name in `engine` (v4 is the default) and the horizons in months. `council` is accepted by POST /v1/scans but not listed.',
  })
  @ApiOkResponse({ type: EngineListDto, description: 'The listed engines and the allowed horizons' })
  engines(): EngineListDto {
    return this.meta.engines();
  }

  @Get('models')
  @ApiOperation({
    operationId: 'listModels',
    summary: 'Models grouped by provider',
    description:
      'Model ids for `model` and `searchModel` of a scan, by provider, with their role and tier. Unconfigured providers are listed (`configured: false`); their models fail at scan time. The tiers large, large48, medium and small are accepted too.',
  })
  @ApiOkResponse({ type: ModelListDto, description: 'Providers with their models' })
  models(): ModelListDto {
    return this.meta.modelList();
  }

  @Get('jurisdictions')
  @ApiOperation({
    operationId: 'listJurisdictions',
    summary: 'Jurisdictions with their principal regulators',
    description:
      'The jurisdiction ids scans match best in `jurisdictions` (free text is accepted; unmatched names are reported in `_meta`).',
  })
  @ApiOkResponse({ type: JurisdictionListDto, description: 'Jurisdictions and their regulators' })
  jurisdictions(): JurisdictionListDto {
    return this.meta.jurisdictionList();
  }

  @Get('areas')
  @ApiOperation({
    operationId: 'listAreas',
    summary: 'Regulatory areas',
    description: 'The area ids scans match best in `areas` (free text is accepted; unmatched names are reported in `_meta`).',
  })
  @ApiOkResponse({ type: AreaListDto, description: 'Regulatory areas' })
  areas(): AreaListDto {
    return this.meta.areaList();
  }

  @Get('export-types')
  @ApiOperation({
    operationId: 'listExportTypes',
    summary: 'Export types with their options schema',
    description:
      'The provider:artifact_type pairs POST /v1/exports accepts, each with the options it takes (all string values) and the integration it needs, if any.',
  })
  @ApiOkResponse({ type: ExportTypeListDto, description: 'Export types with their options_schema' })
  exportTypes(): ExportTypeListDto {
    return this.meta.exportTypeList();
  }
}
