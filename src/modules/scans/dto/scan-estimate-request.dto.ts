import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ENGINE_IDS, HORIZONS } from '../../../domain/vocabulary/engines';
import { PROVIDER_KEYS } from '../../../domain/vocabulary/models';

/** POST /v1/scans/estimate. Defaults are described, not declared (see ScanConfigDto). */
export class ScanEstimateRequestDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: 100, example: ['EU', 'UK'], description: 'Only the count is used' })
  jurisdictions: string[];

  @ApiProperty({ type: [String], minItems: 1, maxItems: 100, example: ['AML / KYC'], description: 'Only the count is used' })
  areas: string[];

  @ApiPropertyOptional({ enum: HORIZONS, example: 12, description: 'Months; validated only when present' })
  horizon?: number;

  @ApiPropertyOptional({
    enum: ENGINE_IDS,
    description: 'Omitted: `v4` (the response names the engine assumed). Retired engines: 422 field code `engine_deprecated`.',
  })
  engine?: string;

  @ApiPropertyOptional({ enum: PROVIDER_KEYS, description: 'Provider hint for the search pass' })
  seekerProvider?: string;

  @ApiPropertyOptional({ enum: PROVIDER_KEYS, description: 'Provider hint for the analysis' })
  analystProvider?: string;

  @ApiPropertyOptional({ enum: PROVIDER_KEYS, description: 'Provider hint for translations' })
  translatorProvider?: string;
}
