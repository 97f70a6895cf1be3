import { Controller, Get, Headers, Param, Query, Res, UseGuards } from '@nestjs/common';
import type { Response as ExpressResponse } from 'express';
import { ApiExtraModels, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../common/auth/auth.decorator';
import { CurrentPrincipal, type Principal } from '../../common/auth/principal';
import { ApiProblems, type ProblemExample } from '../../common/openapi/api-problems.decorator';
import { RateLimit } from '../../common/rate-limit/rate-limit.decorator';
import { SnapshotDto } from '../scans/dto/snapshot.dto';
import { sendRepresentation } from './conditional-response';
import { ListSnapshotsQueryDto } from './dto/list-snapshots-query.dto';
import { NarrativeQueryDto } from './dto/narrative-query.dto';
import { SnapshotReadQueryDto } from './dto/snapshot-read-query.dto';
import { BriefingDto } from './dto/briefing.dto';
import { DriftDto } from './dto/drift.dto';
import { EnvelopeTranslationDto } from './dto/envelope-translation.dto';
import { ExecutiveNarrativeDto } from './dto/executive-narrative.dto';
import { SnapshotExecutiveSummaryDto } from './dto/snapshot-executive-summary.dto';
import { SnapshotItemsDto } from './dto/snapshot-items.dto';
import { SnapshotListDto } from './dto/snapshot-list.dto';
import { SnapshotTrendsDto } from './dto/snapshot-trends.dto';
import { RejectRemovedParametersGuard } from './reject-removed-parameters.guard';
import { SnapshotsService } from './snapshots.service';

const ETAG_HEADERS = {
  ETag: {
    required: true,
    description: 'Strong entity tag of this representation (snapshots are immutable); send it back in If-None-Match',
    schema: { type: 'string', example: '"Yx3Jk0cO9bH2mQv1nR8sT4uW6yA5zC7dE9fG1hI3jK0"' },
  },
  'Cache-Control': { required: true, description: '`private, no-cache`: revalidate with If-None-Match', schema: { type: 'string' } },
};

/** The conditional-read documentation every snapshot read by id shares. */
const ID_PARAM = ApiParam({ name: 'id', format: 'uuid', description: 'snapshot_id from POST /v1/scans or an id from GET /v1/snapshots' });
const IF_NONE_MATCH = ApiHeader({
  name: 'If-None-Match',
  required: false,
  description: 'The ETag of an earlier read of this URL: 304 with no body while it still matches',
  schema: { type: 'string' },
});
// A 304 has no content: only headers.
const NOT_MODIFIED = ApiResponse({
  status: 304,
  description: 'Not modified: If-None-Match holds the current ETag; reuse your copy (no body)',
  headers: ETAG_HEADERS,
});
const ok = (type: unknown, description: string) => ApiOkResponse({ type: type as never, description, headers: ETAG_HEADERS });

const notFound = (
  summary = "No snapshot with this id in your account (another account's snapshots, and malformed ids, count as missing).",
): ProblemExample => ({
  code: 'not_found',
  summary,
  detail: 'Snapshot 5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f not found',
});
const invalidQuery = (summary: string, path: string, message: string): ProblemExample => ({
  code: 'validation_error',
  summary,
  detail: 'The request has invalid fields; see errors',
  errors: [{ path, code: 'invalid', message }],
});

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
      'Newest first, with `{limit, offset, total}` pagination; every filter is optional. `jurisdiction` and `area` match an exact entry of the snapshot config (case-insensitive); `from` is inclusive and `to` exclusive. Unknown parameters are ignored, except the removed `starred`, which is 422 `unknown_parameter`.',
  })
  @ApiOkResponse({ type: SnapshotListDto, description: 'One page of snapshot summaries and the total matching the filters' })
  @ApiProblems(
    invalidQuery(
      'A filter is invalid: limit outside 1 to 100, a negative offset, a `from` or `to` that is not an ISO 8601 date-time, or `from` after `to`.',
      'limit',
      'limit must be an integer from 1 to 100',
    ),
    {
      code: 'unknown_parameter',
      summary: 'The removed `starred` filter was sent (with any value).',
      detail: 'The query parameter `starred` is no longer supported',
      errors: [{ path: 'starred', code: 'unknown', message: 'starred is not a parameter of GET /v1/snapshots' }],
    },
  )
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListSnapshotsQueryDto): Promise<SnapshotListDto> {
    return this.snapshots.list(principal.accountId, query);
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getSnapshot',
    summary: 'A snapshot with its envelope',
    description:
      'The snapshot: its resolved config and its envelope `data` (items, trends, summaries, briefing, auditor, translations, `_meta`). Citation markers are stripped from prose; private keys are never returned. `language` projects a complete translation (or the Simplified English register for `simple`) over the envelope when one exists, else the original is returned untouched. Snapshots never change: revalidate with If-None-Match.',
  })
  @ID_PARAM
  @IF_NONE_MATCH
  @ApiExtraModels(SnapshotDto, EnvelopeTranslationDto)
  @ok(SnapshotDto, 'The snapshot with its envelope')
  @NOT_MODIFIED
  @ApiProblems(
    notFound(),
    invalidQuery(
      '`language` is not one of en, fr, de, es, it, zh, ja, simple.',
      'language',
      'language must be one of en, fr, de, es, it, zh, ja, simple',
    ),
  )
  async read(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() query: SnapshotReadQueryDto,
    @Res({ passthrough: true }) res: ExpressResponse,
    @Headers('If-None-Match') ifNoneMatch?: string,
  ): Promise<string | Response> {
    return sendRepresentation(res, await this.snapshots.represent(principal.accountId, id, 'snapshot', ifNoneMatch, query.language), ifNoneMatch);
  }

  @Get(':id/items')
  @ApiOperation({
    operationId: 'getSnapshotItems',
    summary: "The snapshot's regulatory items",
    description:
      '`data.items` of the envelope, citation markers stripped: each item with its key date, stage, impact, citations and verification. `data` is null when the envelope has no items.',
  })
  @ID_PARAM
  @IF_NONE_MATCH
  @ok(SnapshotItemsDto, 'The items (or null)')
  @NOT_MODIFIED
  @ApiProblems(notFound())
  async items(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Res({ passthrough: true }) res: ExpressResponse,
    @Headers('If-None-Match') ifNoneMatch?: string,
  ): Promise<string | Response> {
    return sendRepresentation(res, await this.snapshots.represent(principal.accountId, id, 'items', ifNoneMatch), ifNoneMatch);
  }

  @Get(':id/trends')
  @ApiOperation({
    operationId: 'getSnapshotTrends',
    summary: "The snapshot's cross-item trends",
    description:
      '`data.trends` of the envelope: themes spanning several items, with their momentum. `data` is null when the envelope has no trends.',
  })
  @ID_PARAM
  @IF_NONE_MATCH
  @ok(SnapshotTrendsDto, 'The trends (or null)')
  @NOT_MODIFIED
  @ApiProblems(notFound())
  async trends(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Res({ passthrough: true }) res: ExpressResponse,
    @Headers('If-None-Match') ifNoneMatch?: string,
  ): Promise<string | Response> {
    return sendRepresentation(res, await this.snapshots.represent(principal.accountId, id, 'trends', ifNoneMatch), ifNoneMatch);
  }

  @Get(':id/executive-summary')
  @ApiOperation({
    operationId: 'getSnapshotExecutiveSummary',
    summary: 'The executive summary (bottom line and priorities)',
    description: '`data.executive_summary` of the envelope, citation markers stripped. `data` is null when the envelope has none.',
  })
  @ID_PARAM
  @IF_NONE_MATCH
  @ok(SnapshotExecutiveSummaryDto, 'The executive summary (or null)')
  @NOT_MODIFIED
  @ApiProblems(notFound())
  async executiveSummary(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Res({ passthrough: true }) res: ExpressResponse,
    @Headers('If-None-Match') ifNoneMatch?: string,
  ): Promise<string | Response> {
    return sendRepresentation(res, await this.snapshots.represent(principal.accountId, id, 'executive-summary', ifNoneMatch), ifNoneMatch);
  }

  @Get(':id/executive-narrative')
  @ApiOperation({
    operationId: 'getSnapshotExecutiveNarrative',
    summary: 'The executive narrative, in English or a translation',
    description:
      'The executive narrative as prose, citation markers stripped, in English or in a language the snapshot has a complete translation for. 404 `not_found` when the snapshot is missing or has no narrative; 404 `translation_not_available` when the requested language has no complete translation.',
  })
  @ID_PARAM
  @IF_NONE_MATCH
  @ok(ExecutiveNarrativeDto, 'The narrative and the language served')
  @NOT_MODIFIED
  @ApiProblems(
    notFound('No snapshot with this id in your account, or the snapshot has no executive narrative.'),
    {
      code: 'translation_not_available',
      summary: 'The snapshot has no complete translation into the requested `language`.',
      detail: 'Snapshot 5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f has no fr translation of its executive narrative',
    },
    invalidQuery('`language` was sent more than once or is not a string.', 'language', 'language must be a single string'),
  )
  async executiveNarrative(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() query: NarrativeQueryDto,
    @Res({ passthrough: true }) res: ExpressResponse,
    @Headers('If-None-Match') ifNoneMatch?: string,
  ): Promise<string | Response> {
    return sendRepresentation(res, await this.snapshots.represent(principal.accountId, id, 'executive-narrative', ifNoneMatch, query.language), ifNoneMatch);
  }

  @Get(':id/drift')
  @ApiOperation({
    operationId: 'getSnapshotDrift',
    summary: 'Changes against the prior comparable snapshot',
    description:
      'Items added, removed (with the reason) and changed (field by field) against a baseline: the newest earlier snapshot of the account with the same horizon that shares at least one jurisdiction and one area (council seats compare only with seats of the same lens). Items are matched by id; `{available: false}` is normal on a first run.',
  })
  @ID_PARAM
  @IF_NONE_MATCH
  @ok(DriftDto, 'The drift overlay, or `{available: false}` without a baseline')
  @NOT_MODIFIED
  @ApiProblems(notFound())
  async drift(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Res({ passthrough: true }) res: ExpressResponse,
    @Headers('If-None-Match') ifNoneMatch?: string,
  ): Promise<string | Response> {
    return sendRepresentation(res, await this.snapshots.represent(principal.accountId, id, 'drift', ifNoneMatch), ifNoneMatch);
  }

  @Get(':id/briefing')
  @ApiOperation({
    operationId: 'getSnapshotBriefing',
    summary: "The sub-editor's briefing block",
    description:
      'Headline, standfirst, priorities, bottom line, pull quote and sentiment written by the sub-editor pass. `{available: false}` for snapshots predating the sub-editor or whose pass failed; 404 only when the snapshot is missing.',
  })
  @ID_PARAM
  @IF_NONE_MATCH
  @ok(BriefingDto, 'The briefing block with `available: true`, or `{available: false}`')
  @NOT_MODIFIED
  @ApiProblems(notFound())
  async briefing(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Res({ passthrough: true }) res: ExpressResponse,
    @Headers('If-None-Match') ifNoneMatch?: string,
  ): Promise<string | Response> {
    return sendRepresentation(res, await this.snapshots.represent(principal.accountId, id, 'briefing', ifNoneMatch), ifNoneMatch);
  }
}
