import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Auth } from '../../common/auth/auth.decorator';
import { CurrentPrincipal, type Principal } from '../../common/auth/principal';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { ApiProblems } from '../../common/openapi/api-problems.decorator';
import { RateLimit } from '../../common/rate-limit/rate-limit.decorator';
import { CreateExportDto } from './dto/create-export.dto';
import { ExportCreatedDto } from './dto/export-created.dto';
import { ExportJobDto } from './dto/export-job.dto';
import { ExportListDto } from './dto/export-list.dto';
import { ListExportsQueryDto } from './dto/list-exports-query.dto';
import { ExportsService } from './exports.service';
import { sendDownload } from './http/download-response';
import { ExportRequestPipe, type ExportRequest } from './pipes/export-request.pipe';

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
    description: 'Always asynchronous: create, poll status_url, then download.',
  })
  @ApiBody({ type: CreateExportDto })
  @ApiAcceptedResponse({ type: ExportCreatedDto, headers: { Location: { description: 'status_url', schema: { type: 'string' } } } })
  @ApiProblems('not_found', 'validation_error', 'unsupported_locale', 'invalid_request')
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
  @ApiOperation({ operationId: 'listExports', summary: 'List export jobs, newest first' })
  @ApiOkResponse({ type: ExportListDto })
  @ApiProblems('validation_error')
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListExportsQueryDto): Promise<ExportListDto> {
    return this.exportsService.list(principal.accountId, query);
  }

  @Get(':id')
  @RateLimit('reads')
  @ApiOperation({ operationId: 'getExport', summary: 'Export job status' })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: ExportJobDto })
  @ApiProblems('not_found')
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<ExportJobDto> {
    return this.exportsService.get(principal.accountId, id);
  }

  @Get(':id/download')
  @RateLimit('reads')
  @ApiOperation({
    operationId: 'downloadExport',
    summary: 'Download the artefact',
    description:
      'Raw bytes with Content-Type result_mime. Inline for audio, video, PDF and images, attachment otherwise. Audio and video honour Range (206).',
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiHeader({ name: 'Range', required: false, description: 'bytes=<start>-<end> (audio and video only)' })
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ description: 'The artefact', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } })
  @ApiProblems('not_found', 'not_ready', 'gone', 'range_not_satisfiable')
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
    description: 'A running job is stopped first. The snapshot is unaffected.',
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiProblems('not_found')
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.exportsService.remove(principal.accountId, id);
  }
}
