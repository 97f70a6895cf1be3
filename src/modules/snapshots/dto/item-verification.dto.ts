import { ApiProperty } from '@nestjs/swagger';
import { VerificationPassDto } from './verification-pass.dto';

export class ItemVerificationDto {
  @ApiProperty({
    enum: ['verified', 'unverified', 'disputed'],
    description: 'The verdict over every pass that ran; `unverified` when none ran',
  })
  status: string;
  @ApiProperty({
    type: [VerificationPassDto],
    description: 'One entry per verification pass that ran (realist, auditor); empty when none was asked for',
  })
  passes: VerificationPassDto[];
}
