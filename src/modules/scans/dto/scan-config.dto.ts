import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ENGINE_IDS, HORIZONS } from '../../../domain/vocabulary/engines';

/**
 * Documentation of the POST /v1/scans body; validation is validateScanConfig (all errors at once, spec field codes).
 * Defaults are stated in descriptions, not as `default`: generators would otherwise type the field as required.
 */
export class ScanConfigDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: 20,
    example: ['EU', 'UK'],
    description: 'Free text, each at most 100 characters; ids from GET /v1/meta/jurisdictions match best',
  })
  jurisdictions: string[];

  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: 20,
    example: ['AML / KYC', 'Payments'],
    description: 'Free text, each at most 200 characters; ids from GET /v1/meta/areas match best',
  })
  areas: string[];

  @ApiProperty({ enum: HORIZONS, example: 12, description: 'Forward horizon in months' })
  horizon: number;

  @ApiPropertyOptional({
    enum: ENGINE_IDS,
    description:
      'Omitted: `v4`. `council` runs two fixed analyst seats (about 15 minutes: use mode=async). Retired v1, v2, v3, admiral: 422 with field code `engine_deprecated`.',
  })
  engine?: string;

  @ApiPropertyOptional({
    example: 'large',
    description:
      "A model id from GET /v1/meta/models or a tier: large, large48, medium, small. Omitted: the engine's default tier `large`. With council only `large` (else 422 `council_model_fixed`); `small` is refused on verifier-aware configs.",
  })
  model?: string;

  @ApiPropertyOptional({ example: 'medium', description: 'Model for the search pass; same vocabulary as model' })
  searchModel?: string;

  @ApiPropertyOptional({
    enum: ['in-analyst'],
    description: 'Turns realist and auditor on when they are unset; needs an explicit engine v4, v4.5-alpha or v4.5-beta in the same body',
  })
  verificationMode?: string;

  @ApiPropertyOptional({
    description:
      'Realist verification pass; `true` needs an explicit engine v4, v4.5-alpha or v4.5-beta. Omitted: false (true under verificationMode).',
  })
  realist?: boolean;

  @ApiPropertyOptional({
    description:
      'Auditor verification pass; `true` needs an explicit engine v4, v4.5-alpha or v4.5-beta. Omitted: false (true under verificationMode).',
  })
  auditor?: boolean;

  @ApiPropertyOptional({
    enum: ['medium'],
    description: 'Only `medium` (legacy). Omitted: the deployment default (DEFAULT_AUDITOR_MODEL).',
  })
  auditorModel?: string;

  @ApiPropertyOptional({
    enum: ['fetch-a', 'fetch-b'],
    description:
      'Page-fetch backend; only with engine v4.5-beta (else 422 field code `incompatible`). Omitted: DEFAULT_FETCH_PROVIDER, else fetch-a.',
  })
  fetchProvider?: string;

  @ApiPropertyOptional({
    enum: ['search-a', 'search-b'],
    description:
      'Search backend; only with engine v4.5-beta (else 422 field code `incompatible`). Omitted: DEFAULT_SEARCH_PROVIDER, else search-a.',
  })
  searchProvider?: string;

  @ApiPropertyOptional({
    enum: ['fetch-b', 'fetch-a'],
    description:
      'Page-read backend for final-QA event verification, any engine. Omitted: fetch-a when page reads use fetch-a, else DEFAULT_VERIFY_PROVIDER, else fetch-b.',
  })
  verifyProvider?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: 20,
    example: ['fr', 'de'],
    description:
      'fr, de, es, it, zh, ja, pt. Not validated: an unsupported code, or a deployment without a translation provider, yields no translation (see `_meta.translation`).',
  })
  translationLanguages?: string[];
}
