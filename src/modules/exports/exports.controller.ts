import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Auth } from '../../common/auth/auth.decorator';
import { CurrentPrincipal, type Principal } from '../../common/auth/principal';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { ApiBinaryDownload } from '../../common/openapi/api-binary-download.decorator';
import { ApiProblems } from '../../common/openapi/api-problems.decorator';
import { RateLimit } from '../../common/rate-limit/rate-limit.decorator';
import { CreateExportDto } from './dto/create-export.dto';
import { ExportCreatedDto } from './dto/export-created.dto';
import { ExportJobDto } from './dto/export-job.dto';
import { ExportListDto } from './dto/export-list.dto';
import {
  CREATE_EXPORT_PROBLEMS,
  DOWNLOAD_MEDIA_TYPES,
  DOWNLOAD_PROBLEMS,
  EXPORT_NOT_FOUND,
  LIST_EXPORTS_PROBLEMS,
  RANGED_MEDIA_TYPES,
} from './dto/export-openapi.examples';
import { ListExportsQueryDto } from './dto/list-exports-query.dto';
import { ExportsService } from './exports.service';
import { sendDownload } from './http/download-response';
import { ExportRequestPipe, type ExportRequest } from './pipes/export-request.pipe';

const EXPORT_ID = ApiParam({ name: 'id', format: 'uuid', description: 'export_job_id from POST /v1/exports' });

@ApiTags('Exports')
@Auth('bearer')
@Controller('v1/exports')
export class ExportsController {
  constructor(private readonly exportsService: ExportsService) {}

  @Post()
  @HttpCode(202)
  @RateLimit('exports')
  @Idempotent()
  @ApiOperation({
    operationId: 'createExport',
    summary: 'Export a snapshot',
    description:
      'Queues an artefact of one of your snapshots: a provider:artifact_type pair from GET /v1/meta/export-types, with options from its options_schema. Always asynchronous: poll status_url every 5 to 10 s until `completed`, then GET its download_url. Replace the example `snapshot_id` with one of yours (from POST /v1/scans or GET /v1/snapshots). Send an Idempotency-Key to retry safely.',
  })
  @ApiBody({ type: CreateExportDto })
  @ApiAcceptedResponse({
    type: ExportCreatedDto,
    description: 'The export job is queued; Location is its status_url',
    headers: {
      Location: {
        required: true,
        description: 'status_url of the job',
        schema: { type: 'string', example: '/v1/exports/5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f' },
      },
    },
  })
  @ApiProblems(...CREATE_EXPORT_PROBLEMS)
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body(ExportRequestPipe) request: ExportRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ExportCreatedDto> {
    const created = await this.exportsService.create(principal, request);
    res.setHeader('Location', created.status_url);
    return created;
  }

  @Get()
  @RateLimit('reads')
  @ApiOperation({
    operationId: 'listExports',
    summary: 'List export jobs, newest first',
    description: "The account's export jobs, newest first, optionally of one snapshot or in some states (`status=completed,failed`).",
  })
  @ApiOkResponse({ type: ExportListDto, description: 'Up to `limit` export jobs' })
  @ApiProblems(...LIST_EXPORTS_PROBLEMS)
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListExportsQueryDto): Promise<ExportListDto> {
    return this.exportsService.list(principal.accountId, query);
  }

  @Get(':id')
  @RateLimit('reads')
  @ApiOperation({
    operationId: 'getExport',
    summary: 'Export job status',
    description:
      'The job with its state; once `completed` it names the media type, file name and size, and `download_url`. `effective_locale` says which language was produced.',
  })
  @EXPORT_ID
  @ApiOkResponse({ type: ExportJobDto, description: 'The export job' })
  @ApiProblems(EXPORT_NOT_FOUND)
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<ExportJobDto> {
    return this.exportsService.get(principal.accountId, id);
  }

  @Get(':id/download')
  @RateLimit('reads')
  @ApiOperation({
    operationId: 'downloadExport',
    summary: 'Download the artefact',
    description:
      "The artefact's raw bytes with Content-Type `result_mime` (PDF, CSV, PPTX, HTML, PNG, MP3, MP4, …) and its file name in Content-Disposition: inline for audio, video, PDF and images, attachment otherwise. Export types an extension registers send their own media type. Audio and video send `Accept-Ranges: bytes` and answer a Range with 206. Save the body as binary, never as text.",
  })
  @EXPORT_ID
  @ApiBinaryDownload({
    mediaTypes: DOWNLOAD_MEDIA_TYPES,
    rangedMediaTypes: RANGED_MEDIA_TYPES,
    description: 'The whole artefact, in the media type of the job (`result_mime`)',
  })
  @ApiProblems(...DOWNLOAD_PROBLEMS)
  async download(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Headers('range') range: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    await sendDownload(res, await this.exportsService.download(principal.accountId, id), range);
  }

  @Delete(':id')
  @HttpCode(204)
  @RateLimit('mutations')
  @ApiOperation({
    operationId: 'deleteExport',
    summary: 'Delete an export job and its bytes',
    description: 'Removes the job and its stored bytes; a running job is stopped first. The snapshot is unaffected.',
  })
  @EXPORT_ID
  @ApiNoContentResponse({ description: 'The job and its bytes are deleted (no body)' })
  @ApiProblems(EXPORT_NOT_FOUND)
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.exportsService.remove(principal.accountId, id);
  }
}
