import { ApiProperty } from '@nestjs/swagger';
import { JurisdictionDto } from './jurisdiction.dto';

export class JurisdictionListDto {
  @ApiProperty({ type: [JurisdictionDto] })
  data: JurisdictionDto[];
}
