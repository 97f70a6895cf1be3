import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ENGINE_IDS } from '../../../domain/vocabulary/engines';

/** Documentation of the POST /v1/scans body; validation is validateScanConfig (all errors at once, spec field codes). */
export class ScanConfigDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: 20, example: ['EU', 'UK'], description: 'Free text, each at most 100 characters' })
  jurisdictions: string[];

  @ApiProperty({ type: [String], minItems: 1, maxItems: 20, example: ['AML / KYC', 'Payments'], description: 'Free text, each at most 200 characters' })
  areas: string[];

  @ApiProperty({ enum: [3, 6, 12, 18, 24, 36], example: 12, description: 'Forward horizon in months' })
  horizon: number;

  @ApiPropertyOptional({ enum: ENGINE_IDS, default: 'v4', description: 'Retired v1, v2, v3, admiral: 422 engine_deprecated' })
  engine?: string;

  @ApiPropertyOptional({ example: 'large', description: 'A model id from GET /v1/meta/models or a tier: large, large48, medium, small. Not with council (unless large).' })
  model?: string;

  @ApiPropertyOptional({ example: 'medium', description: 'Model for the search pass; same vocabulary as model' })
  searchModel?: string;

  @ApiPropertyOptional({ enum: ['in-analyst'], description: 'Defaults realist and auditor to true; needs an explicit engine v4, v4.5-alpha or v4.5-beta' })
  verificationMode?: string;

  @ApiPropertyOptional({ description: 'Realist verification pass; needs an explicit engine v4, v4.5-alpha or v4.5-beta' })
  realist?: boolean;

  @ApiPropertyOptional({ description: 'Auditor verification pass; needs an explicit engine v4, v4.5-alpha or v4.5-beta' })
  auditor?: boolean;

  @ApiPropertyOptional({ enum: ['medium'], description: 'Only medium (legacy); omitted: the deployment default' })
  auditorModel?: string;

  @ApiPropertyOptional({ enum: ['fetch-a', 'fetch-b'], description: 'Page-fetch backend; only with engine v4.5-beta' })
  fetchProvider?: string;

  @ApiPropertyOptional({ enum: ['search-a', 'search-b'], description: 'Search backend; only with engine v4.5-beta' })
  searchProvider?: string;

  @ApiPropertyOptional({ enum: ['fetch-b', 'fetch-a'], description: 'Page-read backend for final-QA event verification; any engine' })
  verifyProvider?: string;

  @ApiPropertyOptional({ type: [String], example: ['fr', 'de'], description: 'fr, de, es, it, zh, ja, pt; unsupported codes yield no translation' })
  translationLanguages?: string[];
}
