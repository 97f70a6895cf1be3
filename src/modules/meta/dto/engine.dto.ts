import { ApiProperty } from '@nestjs/swagger';

export class EngineDto {
  @ApiProperty({ example: 'v4' })
  id: string;
  @ApiProperty({ example: 'v4 (default)' })
  label: string;
  @ApiProperty()
  description: string;
}
