import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response as ExpressResponse } from 'express';
import { Auth } from '../../common/auth/auth.decorator';
import { CurrentPrincipal, type Principal } from '../../common/auth/principal';
import { jsonResponse } from '../../common/http/json-response';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { ApiProblems } from '../../common/openapi/api-problems.decorator';
import { RateLimit } from '../../common/rate-limit/rate-limit.decorator';
import { ScanAcceptedDto } from './dto/scan-accepted.dto';
import { ScanCancelledDto } from './dto/scan-cancelled.dto';
import { ScanEstimateDto } from './dto/scan-estimate.dto';
import { ScanFinishedDto } from './dto/scan-finished.dto';
import {
  SCAN_CANCEL_PROBLEMS,
  SCAN_CONFIG_EXAMPLES,
  SCAN_CONFIG_PROBLEMS,
  SCAN_ESTIMATE_EXAMPLES,
  SCAN_ESTIMATE_PROBLEMS,
  SCAN_NOT_FOUND,
  SCAN_STREAM_PROBLEMS,
} from './dto/scan-openapi.examples';
import { SCAN_EVENT_EXAMPLES, SCAN_EVENT_SCHEMA, SCAN_EVENTS } from './dto/scan-event.schema';
import { ScanStatusDto } from './dto/scan-status.dto';
import { ScanConfigDto } from './dto/scan-config.dto';
import { ScanEstimateRequestDto } from './dto/scan-estimate-request.dto';
import type { ResolvedScanConfig } from '../../domain/scan-config.types';
import { EstimateRequestPipe } from './pipes/estimate-request.pipe';
import { ScanConfigPipe } from './pipes/scan-config.pipe';
import { ScanModePipe, type ScanMode } from './pipes/scan-mode.pipe';
import { sseResponse } from './http/sse-response';
import { ScanStreamService } from './scan-stream.service';
import { ScansService } from './scans.service';
import type { ValidatedEstimateRequest } from './validation/scan-config.validator';

const STATUS_URL = {
  Location: {
    required: true,
    description: 'status_url: poll it, or follow stream_url',
    schema: { type: 'string', example: '/v1/scans/5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f' },
  },
};
const SCAN_ID = ApiParam({ name: 'id', format: 'uuid', description: 'scan_id from POST /v1/scans' });
@ApiTags('Scans')
@Auth('bearer')
@Controller('v1/scans')
export class ScansController {
  constructor(
    private readonly scans: ScansService,
    private readonly streams: ScanStreamService,
  ) {}

  @Post()
  @HttpCode(202)
  @RateLimit('scans')
  @Idempotent()
  @ApiOperation({
    operationId: 'createScan',
    summary: 'Run a scan',
    description:
      "Runs one scan of the body's jurisdictions x areas x horizon and stores its snapshot. `mode=sync` (the default) waits up to 120 s: 200 with the snapshot when the engine finishes (or with the error when it fails or is cancelled), else 202. `mode=async` answers 202 at once; follow `stream_url` or poll `status_url` every 5 to 10 s. The scan reserves its expected cost from the budget pool (see POST /v1/scans/estimate). Send an Idempotency-Key to retry safely.",
  })
  @ApiQuery({
    name: 'mode',
    required: false,
    enum: ['sync', 'async'],
    description: 'Omitted: `sync`, which waits up to 120 s for the result. Council scans take about 15 minutes: use `async`.',
  })
  @ApiBody({ type: ScanConfigDto, examples: SCAN_CONFIG_EXAMPLES })
  @ApiExtraModels(ScanFinishedDto, ScanAcceptedDto)
  @ApiOkResponse({
    type: ScanFinishedDto,
    description:
      'The scan finished within the sync wait: `completed` with its snapshot (prose keeps its [[cite:N]] markers), or `failed`/`cancelled` with `error`',
  })
  @ApiAcceptedResponse({
    type: ScanAcceptedDto,
    description: 'The scan is running (mode=async, or the sync wait ran out: then `message` says so); Location is status_url',
    headers: STATUS_URL,
  })
  @ApiProblems(...SCAN_CONFIG_PROBLEMS)
  async create(
    @CurrentPrincipal() principal: Principal,
    @Query('mode', ScanModePipe) mode: ScanMode,
    @Body(ScanConfigPipe) config: ResolvedScanConfig,
  ): Promise<Response> {
    const created = await this.scans.create(principal, config, mode);
    if (created.finished) return jsonResponse(200, created.outcome);
    const statusUrl = `/v1/scans/${created.scanId}`;
    const accepted: ScanAcceptedDto = { scan_id: created.scanId, status: 'running', status_url: statusUrl, stream_url: `${statusUrl}/stream` };
    return jsonResponse(202, created.message ? { ...accepted, message: created.message } : accepted, { Location: statusUrl });
  }

  @Post('estimate')
  @HttpCode(200)
  @RateLimit('reads')
  @ApiOperation({
    operationId: 'estimateScan',
    summary: 'Estimate the cost of a scan',
    description:
      'Low, expected and high cost in US cents for a scan of this many jurisdictions and areas, from the history of similar runs (all null on a cold start). Queues nothing and touches neither the budget nor the scans bucket (it counts against `reads`).',
  })
  @ApiBody({ type: ScanEstimateRequestDto, examples: SCAN_ESTIMATE_EXAMPLES })
  @ApiOkResponse({ type: ScanEstimateDto, description: 'The estimate, with the engine it assumed and how confident it is' })
  @ApiProblems(...SCAN_ESTIMATE_PROBLEMS)
  estimate(@Body(EstimateRequestPipe) request: ValidatedEstimateRequest): Promise<ScanEstimateDto> {
    return this.scans.estimate(request);
  }

  @Get(':id')
  @RateLimit('reads')
  @ApiOperation({
    operationId: 'getScan',
    summary: 'Scan status',
    description:
      'Status, progress and cost of a scan; `snapshot_id` is set once it completed. Poll every 5 to 10 s, or follow GET /v1/scans/{id}/stream instead.',
  })
  @SCAN_ID
  @ApiOkResponse({ type: ScanStatusDto, description: 'The scan as it stands' })
  @ApiProblems(SCAN_NOT_FOUND)
  status(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<ScanStatusDto> {
    return this.scans.status(principal.accountId, id);
  }

  @Get(':id/stream')
  @ApiOperation({
    operationId: 'streamScan',
    summary: 'Live scan progress (server-sent events)',
    description:
      'Server-sent events. Each message has an `id:` line and a `data:` line holding a JSON object told apart by `type`: `progress` {phase, percent, message}, then exactly one terminal event, `complete` {data, snapshotId}, `error` {error} or `cancelled`, after which the stream closes. The current state is sent at once; a finished scan sends its terminal event once and closes. A `: heartbeat` comment comes every 30 s. To resume after a dropped connection, reconnect with `Last-Event-ID` (EventSource does this itself) or `?lastEventId=`: the stream sends the events you missed, in order and once each, then live ones; an id the server cannot place (unknown, expired, or from another scan) starts a fresh stream. Not rate-limited, but the streams open at once are capped per API key (429, the `streams` bucket) and per server (503); both carry Retry-After. A server that shuts down ends its streams with an SSE `retry:` hint; reconnecting with the last id resumes where it left off.',
  })
  @SCAN_ID
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description:
      "The `id` of the last event received, when reconnecting: the stream sends only the events after it. Ids are opaque (`<n>-<n>` today); an unknown or expired one starts a fresh stream. Browsers' EventSource sends it by itself.",
    schema: { type: 'string', maxLength: 200 },
  })
  @ApiQuery({
    name: 'lastEventId',
    required: false,
    description: 'The same as the `Last-Event-ID` header, for clients that cannot set headers; the header wins when both are sent.',
    schema: { type: 'string', maxLength: 200 },
  })
  @ApiProduces('text/event-stream')
  @ApiExtraModels(...SCAN_EVENTS)
  @ApiOkResponse({
    description:
      'The event stream: `progress` events, then one terminal event (`complete`, `error` or `cancelled`), then the stream closes',
    content: { 'text/event-stream': { schema: SCAN_EVENT_SCHEMA, examples: SCAN_EVENT_EXAMPLES } },
  })
  @ApiProblems(...SCAN_STREAM_PROBLEMS)
  async stream(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Query('lastEventId') lastEventIdParam: unknown,
    @Req() req: Request,
    @Res() res: ExpressResponse,
  ): Promise<void> {
    const scan = await this.scans.owned(principal.accountId, id);
    const subject = principal.kind === 'api_key' ? `key:${principal.apiKeyId}` : `user:${principal.userId}`;
    // The header wins: an EventSource that reconnects sends its newest id there, while its URL keeps the first.
    await this.streams.open(scan, subject, sseResponse(req, res), lastEventId ?? lastEventIdParam);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @RateLimit('mutations')
  @ApiOperation({
    operationId: 'cancelScan',
    summary: 'Cancel a running scan',
    description:
      'Stops a running scan: streams get a `cancelled` event, work already in flight is discarded and never overwrites the cancelled state. The work done before the cancel is charged; the rest of the reservation is released.',
  })
  @SCAN_ID
  @ApiOkResponse({ type: ScanCancelledDto, description: 'The scan is now cancelled' })
  @ApiProblems(...SCAN_CANCEL_PROBLEMS)
  cancel(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<ScanCancelledDto> {
    return this.scans.cancel(principal.accountId, id);
  }
}
