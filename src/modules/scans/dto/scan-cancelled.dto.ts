import { ApiProperty } from '@nestjs/swagger';

export class ScanCancelledDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ enum: ['cancelled'] })
  status: 'cancelled';
}
