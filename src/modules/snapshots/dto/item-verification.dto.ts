import { ApiProperty } from '@nestjs/swagger';

export class ItemVerificationDto {
  @ApiProperty({ enum: ['verified', 'unverified', 'disputed'] })
  status: string;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  passes: Record<string, unknown>[];
}
