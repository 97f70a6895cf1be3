import { ApiProperty } from '@nestjs/swagger';

export class ExecutiveSummaryDto {
  @ApiProperty()
  bottom_line: string;
  @ApiProperty({ type: [String] })
  priorities: string[];
}
