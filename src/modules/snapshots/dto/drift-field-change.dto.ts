import { ApiProperty } from '@nestjs/swagger';
import { ANY_JSON_VALUE } from '../../../common/openapi/json-value.schema';
import { DRIFT_FIELDS } from '../drift';

export class DriftFieldChangeDto {
  @ApiProperty({ enum: DRIFT_FIELDS })
  field: string;
  @ApiProperty({ ...ANY_JSON_VALUE, description: 'Value in the baseline: any JSON value, null when absent' })
  before: unknown;
  @ApiProperty({ ...ANY_JSON_VALUE, description: 'Value in this snapshot: any JSON value, null when absent' })
  after: unknown;
}
