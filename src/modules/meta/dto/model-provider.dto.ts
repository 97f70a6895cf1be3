import { ApiProperty } from '@nestjs/swagger';
import { ModelDto } from './model.dto';

export class ModelProviderDto {
  @ApiProperty({ enum: ['anthropic', 'openai', 'gemini', 'deepl', 'cohere', 'perplexity', 'offline'] })
  provider: string;
  @ApiProperty()
  label: string;
  @ApiProperty({ description: 'False when the deployment has no credentials for it; its models then fail at scan time' })
  configured: boolean;
  @ApiProperty({ type: [ModelDto] })
  models: ModelDto[];
}
