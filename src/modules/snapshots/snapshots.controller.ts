import { Controller, Get, Headers, Param, Query, UseGuards } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../common/auth/auth.decorator';
import { CurrentPrincipal, type Principal } from '../../common/auth/principal';
import { ApiProblems } from '../../common/openapi/api-problems.decorator';
import { RateLimit } from '../../common/rate-limit/rate-limit.decorator';
import { SnapshotDto } from '../scans/dto/snapshot.dto';
import { conditionalJson } from './conditional-response';
import { ListSnapshotsQueryDto } from './dto/list-snapshots-query.dto';
import { NarrativeQueryDto } from './dto/narrative-query.dto';
import { SnapshotReadQueryDto } from './dto/snapshot-read-query.dto';
import { BriefingDto } from './dto/briefing.dto';
import { DriftDto } from './dto/drift.dto';
import { ExecutiveNarrativeDto } from './dto/executive-narrative.dto';
import { SnapshotExecutiveSummaryDto } from './dto/snapshot-executive-summary.dto';
import { SnapshotItemsDto } from './dto/snapshot-items.dto';
import { SnapshotListDto } from './dto/snapshot-list.dto';
import { SnapshotTrendsDto } from './dto/snapshot-trends.dto';
import { RejectRemovedParametersGuard } from './reject-removed-parameters.guard';
import { SnapshotsService } from './snapshots.service';

const ETAG_HEADERS = {
  ETag: { description: 'Strong entity tag of this representation (snapshots are immutable)', schema: { type: 'string' } },
  'Cache-Control': { description: '`private, no-cache`', schema: { type: 'string' } },
};

/** The conditional-read documentation every snapshot read by id shares. */
const ID_PARAM = ApiParam({ name: 'id', format: 'uuid', description: 'Snapshot id; a malformed or foreign id is 404 `not_found`' });
const IF_NONE_MATCH = ApiHeader({
  name: 'If-None-Match',
  required: false,
  description: 'An ETag from an earlier read: 304 with no body when it still matches',
});
const NOT_MODIFIED = ApiResponse({
  status: 304,
  description: 'Not modified: the If-None-Match tag matches (no body)',
  headers: ETAG_HEADERS,
});
const ok = (type: unknown, description?: string) => ApiOkResponse({ type: type as never, description, headers: ETAG_HEADERS });

@ApiTags('Snapshots')
@Auth('bearer')
@RateLimit('reads')
@Controller('v1/snapshots')
export class SnapshotsController {
  constructor(private readonly snapshots: SnapshotsService) {}

  @Get()
  @UseGuards(RejectRemovedParametersGuard)
  @ApiOperation({
    operationId: 'listSnapshots',
    summary: "List the account's snapshots",
    description:
      'Newest first, with `{limit, offset, total}` pagination. `jurisdiction` and `area` match an exact entry of the snapshot config (case-insensitive); `from` is inclusive and `to` exclusive. Unknown parameters are ignored, except the removed `starred` (422 `unknown_parameter`).',
  })
  @ApiQuery({
    name: 'starred',
    required: false,
    deprecated: true,
    schema: { type: 'string' },
    description: 'Removed: any value gives 422 `unknown_parameter`',
  })
  @ApiOkResponse({ type: SnapshotListDto })
  @ApiProblems('validation_error', 'unknown_parameter')
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListSnapshotsQueryDto): Promise<SnapshotListDto> {
    return this.snapshots.list(principal.accountId, query);
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getSnapshot',
    summary: 'A snapshot with its envelope',
    description:
      'Citation markers are stripped from prose; private keys are never returned. `language` projects a complete translation (or the Simplified English register for `simple`) over the envelope when one exists, else the original is returned untouched.',
  })
  @ID_PARAM
  @IF_NONE_MATCH
  @ApiExtraModels(SnapshotDto)
  @ok(SnapshotDto)
  @NOT_MODIFIED
  @ApiProblems('not_found', 'validation_error')
  async read(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() query: SnapshotReadQueryDto,
    @Headers('If-None-Match') ifNoneMatch?: string,
  ): Promise<Response> {
    return conditionalJson(await this.snapshots.read(principal.accountId, id, query.language), ifNoneMatch);
  }

  @Get(':id/items')
  @ApiOperation({ operationId: 'getSnapshotItems', summary: "The snapshot's regulatory items" })
  @ID_PARAM
  @IF_NONE_MATCH
  @ok(SnapshotItemsDto)
  @NOT_MODIFIED
  @ApiProblems('not_found')
  async items(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Headers('If-None-Match') ifNoneMatch?: string,
  ): Promise<Response> {
    return conditionalJson(await this.snapshots.items(principal.accountId, id), ifNoneMatch);
  }

  @Get(':id/trends')
  @ApiOperation({ operationId: 'getSnapshotTrends', summary: "The snapshot's cross-item trends" })
  @ID_PARAM
  @IF_NONE_MATCH
  @ok(SnapshotTrendsDto)
  @NOT_MODIFIED
  @ApiProblems('not_found')
  async trends(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Headers('If-None-Match') ifNoneMatch?: string,
  ): Promise<Response> {
    return conditionalJson(await this.snapshots.trends(principal.accountId, id), ifNoneMatch);
  }

  @Get(':id/executive-summary')
  @ApiOperation({ operationId: 'getSnapshotExecutiveSummary', summary: 'The executive summary (bottom line and priorities)' })
  @ID_PARAM
  @IF_NONE_MATCH
  @ok(SnapshotExecutiveSummaryDto)
  @NOT_MODIFIED
  @ApiProblems('not_found')
  async executiveSummary(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Headers('If-None-Match') ifNoneMatch?: string,
  ): Promise<Response> {
    return conditionalJson(await this.snapshots.executiveSummary(principal.accountId, id), ifNoneMatch);
  }

  @Get(':id/executive-narrative')
  @ApiOperation({
    operationId: 'getSnapshotExecutiveNarrative',
    summary: 'The executive narrative, in English or a translation',
    description:
      '404 `not_found` when the snapshot is missing or has no narrative; 404 `translation_not_available` when the requested language has no complete translation.',
  })
  @ID_PARAM
  @IF_NONE_MATCH
  @ok(ExecutiveNarrativeDto)
  @NOT_MODIFIED
  @ApiProblems('not_found', 'translation_not_available', 'validation_error')
  async executiveNarrative(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() query: NarrativeQueryDto,
    @Headers('If-None-Match') ifNoneMatch?: string,
  ): Promise<Response> {
    return conditionalJson(await this.snapshots.executiveNarrative(principal.accountId, id, query.language), ifNoneMatch);
  }

  @Get(':id/drift')
  @ApiOperation({
    operationId: 'getSnapshotDrift',
    summary: 'Changes against the prior comparable snapshot',
    description:
      'The baseline is the newest earlier snapshot of the account with the same horizon that shares at least one jurisdiction and one area (council seats compare only with seats of the same lens). Items are matched by id; `{available: false}` is normal on a first run.',
  })
  @ID_PARAM
  @IF_NONE_MATCH
  @ok(DriftDto)
  @NOT_MODIFIED
  @ApiProblems('not_found')
  async drift(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Headers('If-None-Match') ifNoneMatch?: string,
  ): Promise<Response> {
    return conditionalJson(await this.snapshots.drift(principal.accountId, id), ifNoneMatch);
  }

  @Get(':id/briefing')
  @ApiOperation({
    operationId: 'getSnapshotBriefing',
    summary: "The sub-editor's briefing block",
    description: '`{available: false}` for snapshots predating the sub-editor or whose pass failed; 404 only when the snapshot is missing.',
  })
  @ID_PARAM
  @IF_NONE_MATCH
  @ok(BriefingDto)
  @NOT_MODIFIED
  @ApiProblems('not_found')
  async briefing(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Headers('If-None-Match') ifNoneMatch?: string,
  ): Promise<Response> {
    return conditionalJson(await this.snapshots.briefing(principal.accountId, id), ifNoneMatch);
  }
}
