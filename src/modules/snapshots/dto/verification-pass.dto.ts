import { ApiProperty } from '@nestjs/swagger';

export class VerificationPassDto {
  @ApiProperty({ enum: ['realist', 'auditor'], description: 'Which verification pass judged the item' })
  pass: string;
  @ApiProperty({ enum: ['verified', 'unverified', 'disputed'] })
  status: string;
  @ApiProperty({ example: 'Confirmed date 9 January 2027, consistent with the applies stage.', description: "The pass's reason" })
  note: string;
}
