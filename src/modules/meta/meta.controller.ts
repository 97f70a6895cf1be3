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
  @ApiOperation({ operationId: 'listEngines', summary: 'Engines and allowed horizons' })
  @ApiOkResponse({ type: EngineListDto })
  engines(): EngineListDto {
    return this.meta.engines();
  }

  @Get('models')
  @ApiOperation({ operationId: 'listModels', summary: 'Models grouped by provider', description: 'Unconfigured providers are listed; their models fail at scan time.' })
  @ApiOkResponse({ type: ModelListDto })
  models(): ModelListDto {
    return this.meta.modelList();
  }

  @Get('jurisdictions')
  @ApiOperation({ operationId: 'listJurisdictions', summary: 'Jurisdictions with their principal regulators' })
  @ApiOkResponse({ type: JurisdictionListDto })
  jurisdictions(): JurisdictionListDto {
    return this.meta.jurisdictionList();
  }

  @Get('areas')
  @ApiOperation({ operationId: 'listAreas', summary: 'Regulatory areas' })
  @ApiOkResponse({ type: AreaListDto })
  areas(): AreaListDto {
    return this.meta.areaList();
  }

  @Get('export-types')
  @ApiOperation({ operationId: 'listExportTypes', summary: 'Export types with their options schema' })
  @ApiOkResponse({ type: ExportTypeListDto })
  exportTypes(): ExportTypeListDto {
    return this.meta.exportTypeList();
  }
}
