import { type AdapterOptions, asArray, asCount, asRecord, malformed } from '../http/provider-http';
import { OPENAI_BASE_URL } from '../llm/openai.adapter';
import { VendorApi } from '../llm/vendor-api';
import type { ImageGenerationRequest, ImageGenerationResult, ImagePort } from '../ports';
import { ProviderFailure } from '../provider-errors';
import { decodeBase64Image, IMAGE_TIMEOUT_MS } from './image-bytes';

/** The GPT image models' sizes: portrait pages get 1024x1536 (2:3, the closest to A4 and 4:5 on offer). */
const SIZES: Readonly<Record<ImageGenerationRequest['aspectRatio'], string>> = {
  '2:3': '1024x1536',
  '4:5': '1024x1536',
  '1:1': '1024x1024',
};

/**
 * OpenAI Images API, `POST /v1/images/generations` (openai-node `images.generate`): one image, PNG, high quality
 * (the page carries small text). GPT image models always answer base64 (`data[0].b64_json`) and report token
 * `usage` (input text tokens, output image tokens).
 */
export class OpenAiImageAdapter extends VendorApi implements ImagePort {
  readonly provider = 'openai';

  constructor(options: AdapterOptions) {
    super({ ...options, timeoutMs: options.timeoutMs ?? IMAGE_TIMEOUT_MS }, OPENAI_BASE_URL, 'OPENAI_API_KEY');
  }

  protected authHeaders(): Record<string, string> {
    return { authorization: `Bearer ${this.options.apiKey}` };
  }

  async generate(request: ImageGenerationRequest, signal?: AbortSignal): Promise<ImageGenerationResult> {
    const body = {
      model: request.model,
      prompt: request.prompt,
      n: 1,
      size: SIZES[request.aspectRatio],
      quality: 'high',
      output_format: 'png',
    };
    const data = await this.postForObject('/v1/images/generations', body, request.model, signal);
    const first = asRecord(asArray(data.data)?.[0]);
    if (!first) throw malformed(this.provider, 'missing data[0]');
    if (typeof first.b64_json !== 'string' && typeof first.url === 'string') {
      throw new ProviderFailure(
        `openai answered with an image URL instead of b64_json (model ${request.model} is not a GPT image model)`,
        this.provider,
        null,
      );
    }
    const bytes = decodeBase64Image(this.provider, first.b64_json, 'data[0].b64_json');
    const usage = asRecord(data.usage);
    const format = typeof data.output_format === 'string' ? data.output_format.toLowerCase() : 'png';
    return {
      bytes,
      mimeType: format === 'jpeg' || format === 'jpg' ? 'image/jpeg' : format === 'webp' ? 'image/webp' : 'image/png',
      usage: { inputTokens: asCount(usage?.input_tokens), outputTokens: asCount(usage?.output_tokens) },
    };
  }
}
