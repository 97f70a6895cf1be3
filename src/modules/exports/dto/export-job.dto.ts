import { ApiProperty } from '@nestjs/swagger';

export class ExportJobDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ enum: ['queued', 'processing', 'completed', 'failed', 'cancelled', 'undelivered'] })
  status: string;
  @ApiProperty({ example: 'slide-deck' })
  artifact_type: string;
  @ApiProperty({ example: 'internal-pptx' })
  provider: string;
  @ApiProperty({ format: 'uuid' })
  snapshot_id: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'The options used, defaults filled' })
  options: Record<string, string>;
  @ApiProperty({ format: 'date-time' })
  created_at: string;
  @ApiProperty({ format: 'date-time', type: String, nullable: true })
  completed_at: string | null;
  @ApiProperty({ example: 0, description: 'US cents; internal types cost 0' })
  cost_cents: number;
  @ApiProperty({ type: String, nullable: true })
  error: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'application/pdf' })
  result_mime: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'regulatory-horizon-eu-uk-2026-11-22.pdf' })
  result_filename: string | null;
  @ApiProperty({ type: Number, nullable: true })
  result_size_bytes: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Set only when completed', example: '/v1/exports/…/download' })
  download_url: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The language actually produced' })
  effective_locale: string | null;
  @ApiProperty({ type: String, nullable: true, enum: ['requested', 'fallback_missing_translation', 'fallback_english_only', 'default'] })
  locale_provenance: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['openai', 'gemini', 'offline'],
    description:
      'Image exports (imagegen-a-infographic, imagegen-b-infographic) only, once completed: who drew the image. `openai` (OpenAI Images API) or `gemini` (Gemini image model) when the vendor is configured; `offline` when it is not and the built-in renderer drew the page instead. Null for every other type.',
  })
  rendered_by: string | null;
}
