import { ApiProperty } from '@nestjs/swagger';
import { ExportJobDto } from './export-job.dto';

export class ExportListDto {
  @ApiProperty({ type: [ExportJobDto] })
  data: ExportJobDto[];
}
