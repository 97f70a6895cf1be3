import { ApiProperty } from '@nestjs/swagger';
import { ENGINE_IDS, HORIZONS } from '../../../domain/vocabulary/engines';

/** `config` of a snapshot: the scan configuration as it ran, every default resolved (../shared/spec/decisions.md C1, C2). */
export class ResolvedScanConfigDto {
  @ApiProperty({ type: [String], example: ['EU', 'UK'] })
  jurisdictions: string[];
  @ApiProperty({ type: [String], example: ['AML / KYC', 'Payments'] })
  areas: string[];
  @ApiProperty({ enum: HORIZONS, example: 12 })
  horizon: number;
  @ApiProperty({ enum: ENGINE_IDS, example: 'v4' })
  engine: string;
  @ApiProperty({ type: String, nullable: true, description: "As requested; null: the engine's default tier (`large`)" })
  model: string | null;
  @ApiProperty({ type: String, nullable: true })
  searchModel: string | null;
  @ApiProperty({ type: String, nullable: true, enum: ['in-analyst'] })
  verificationMode: string | null;
  @ApiProperty()
  realist: boolean;
  @ApiProperty()
  auditor: boolean;
  @ApiProperty({ enum: ['medium'] })
  auditorModel: string;
  @ApiProperty({ type: String, nullable: true, enum: ['fetch-a', 'fetch-b'], description: 'Set for engine v4.5-beta only' })
  fetchProvider: string | null;
  @ApiProperty({ type: String, nullable: true, enum: ['search-a', 'search-b'], description: 'Set for engine v4.5-beta only' })
  searchProvider: string | null;
  @ApiProperty({ enum: ['fetch-a', 'fetch-b'] })
  verifyProvider: string;
  @ApiProperty({ type: [String], description: 'As requested (deduplicated); `_meta.translation` says which were produced' })
  translationLanguages: string[];
}
