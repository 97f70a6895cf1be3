import { ApiProperty } from '@nestjs/swagger';

export class JurisdictionDto {
  @ApiProperty({ example: 'EU' })
  id: string;
  @ApiProperty({ example: 'European Union' })
  label: string;
  @ApiProperty({ type: [String], example: ['European Commission', 'EBA', 'ESMA'] })
  regulators: string[];
}
