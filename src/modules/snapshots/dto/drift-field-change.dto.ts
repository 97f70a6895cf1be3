import { ApiProperty } from '@nestjs/swagger';
import { DRIFT_FIELDS } from '../drift';

const ANY_VALUE = {
  oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'object' }, { type: 'array', items: {} }, { type: 'null' }],
};

export class DriftFieldChangeDto {
  @ApiProperty({ enum: DRIFT_FIELDS })
  field: string;
  @ApiProperty({ ...ANY_VALUE, description: 'Value in the baseline (null when absent)' })
  before: unknown;
  @ApiProperty({ ...ANY_VALUE, description: 'Value in this snapshot (null when absent)' })
  after: unknown;
}
