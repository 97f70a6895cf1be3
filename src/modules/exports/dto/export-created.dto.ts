import { ApiProperty } from '@nestjs/swagger';

export class ExportCreatedDto {
  @ApiProperty({ format: 'uuid' })
  export_job_id: string;
  @ApiProperty({ enum: ['queued'] })
  status: 'queued';
  @ApiProperty({ example: '/v1/exports/…' })
  status_url: string;
  @ApiProperty({ type: String, nullable: true, description: 'null until the job completes' })
  download_url: string | null;
}
