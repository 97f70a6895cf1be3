import { ApiProperty } from '@nestjs/swagger';

export class AreaDto {
  @ApiProperty({ example: 'AML / KYC' })
  id: string;
  @ApiProperty({ example: 'AML / KYC' })
  label: string;
}
