import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ENGINE_IDS } from '../../../domain/vocabulary/engines';

export class ScanEstimateRequestDto {
  @ApiProperty({ type: [String], minItems: 1, example: ['EU', 'UK'] })
  jurisdictions: string[];

  @ApiProperty({ type: [String], minItems: 1, example: ['AML / KYC'] })
  areas: string[];

  @ApiPropertyOptional({ enum: [3, 6, 12, 18, 24, 36] })
  horizon?: number;

  @ApiPropertyOptional({ enum: ENGINE_IDS, default: 'v4' })
  engine?: string;

  @ApiPropertyOptional({ enum: ['anthropic', 'openai', 'gemini', 'deepl', 'cohere', 'perplexity', 'offline'] })
  seekerProvider?: string;

  @ApiPropertyOptional({ enum: ['anthropic', 'openai', 'gemini', 'deepl', 'cohere', 'perplexity', 'offline'] })
  analystProvider?: string;

  @ApiPropertyOptional({ enum: ['anthropic', 'openai', 'gemini', 'deepl', 'cohere', 'perplexity', 'offline'] })
  translatorProvider?: string;
}
