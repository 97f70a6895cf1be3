import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength, MinLength } from 'class-validator';
import { IsStorableText } from '../../../common/validation/storable-text';

export class CreateApiKeyDto {
  @ApiProperty({ description: 'A label to recognise the key by', example: 'CI pipeline', minLength: 1, maxLength: 200 })
  @IsDefined({ message: 'name is required' })
  @IsString({ message: 'name must be a string' })
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(200, { message: 'name must be at most 200 characters' })
  @IsStorableText()
  name: string;
}
