import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
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
      'mode=sync (default) waits up to 120 s: 200 with the snapshot when the engine finishes (or with the error when it fails or is cancelled), else 202. mode=async answers 202 at once. 202 sets Location to status_url.',
  })
  @ApiQuery({ name: 'mode', required: false, enum: ['sync', 'async'] })
  @ApiBody({ type: ScanConfigDto })
  @ApiExtraModels(ScanFinishedDto, ScanAcceptedDto)
  @ApiOkResponse({ type: ScanFinishedDto, description: 'The scan finished within the sync window' })
  @ApiAcceptedResponse({
    type: ScanAcceptedDto,
    description: 'Running; poll status_url or follow stream_url',
    headers: { Location: { description: 'status_url', schema: { type: 'string' } } },
  })
  @ApiProblems('validation_error', 'engine_deprecated', 'council_model_fixed', 'budget_exhausted', 'engine_unavailable', 'invalid_request')
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
    description: 'Queues nothing and does not touch the budget or the scans bucket.',
  })
  @ApiBody({ type: ScanEstimateRequestDto })
  @ApiOkResponse({ type: ScanEstimateDto })
  @ApiProblems('validation_error', 'invalid_request')
  estimate(@Body(EstimateRequestPipe) request: ValidatedEstimateRequest): Promise<ScanEstimateDto> {
    return this.scans.estimate(request);
  }

  @Get(':id')
  @RateLimit('reads')
  @ApiOperation({ operationId: 'getScan', summary: 'Scan status' })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: ScanStatusDto })
  @ApiProblems('not_found')
  status(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<ScanStatusDto> {
    return this.scans.status(principal.accountId, id);
  }

  @Get(':id/stream')
  @ApiOperation({
    operationId: 'streamScan',
    summary: 'Live scan progress (server-sent events)',
    description:
      'Each message is a `data:` line holding a JSON object with a `type`: progress {phase, percent, message}, complete {data, snapshotId}, error {error}, cancelled. The current state is sent at once; a finished scan sends its terminal event once and closes. `: heartbeat` every 30 s. Not rate-limited, but the number of streams open at once is capped per API key (429, the `streams` bucket) and per server (503); both carry Retry-After. A server that shuts down ends its streams with an SSE `retry:` hint: reconnect and the stream resumes from the stored state.',
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({
    description: 'An event stream',
    content: {
      'text/event-stream': {
        schema: { type: 'string', example: 'data: {"type":"progress","phase":"analyse","percent":55,"message":"…"}\n\n' },
      },
    },
  })
  @ApiProblems('not_found', 'rate_limit_exceeded')
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
    description: 'Work already in flight is discarded and never overwrites the cancelled state.',
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: ScanCancelledDto })
  @ApiProblems('not_found', 'invalid_state')
  cancel(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<ScanCancelledDto> {
    return this.scans.cancel(principal.accountId, id);
  }
}
