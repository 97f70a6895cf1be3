import { ApiProperty } from '@nestjs/swagger';
import { ExportTypeDto } from './export-type.dto';

export class ExportTypeListDto {
  @ApiProperty({ type: [ExportTypeDto] })
  data: ExportTypeDto[];
}
