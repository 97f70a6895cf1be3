import { type AdapterOptions, asArray, asCount, asRecord, malformed } from '../http/provider-http';
import { GEMINI_BASE_URL } from '../llm/gemini.adapter';
import { VendorApi } from '../llm/vendor-api';
import type { ImageGenerationRequest, ImageGenerationResult, ImagePort } from '../ports';
import { ProviderFailure } from '../provider-errors';
import { decodeBase64Image, IMAGE_TIMEOUT_MS } from './image-bytes';

/**
 * Gemini image models (`gemini-2.5-flash-image`) through `generateContent`: image output only
 * (`generationConfig.responseModalities: ["IMAGE"]`) at the page's aspect ratio (`imageConfig.aspectRatio`). The
 * image comes back as `candidates[0].content.parts[].inlineData {mimeType, data}` (base64), usage in
 * `usageMetadata` (an image is billed as output tokens, 1290 per image for gemini-2.5-flash-image).
 */
export class GeminiImageAdapter extends VendorApi implements ImagePort {
  readonly provider = 'gemini';

  constructor(options: AdapterOptions) {
    super({ ...options, timeoutMs: options.timeoutMs ?? IMAGE_TIMEOUT_MS }, GEMINI_BASE_URL, 'GEMINI_API_KEY');
  }

  protected authHeaders(): Record<string, string> {
    return { 'x-goog-api-key': this.options.apiKey };
  }

  async generate(request: ImageGenerationRequest, signal?: AbortSignal): Promise<ImageGenerationResult> {
    const id = request.model.replace(/^models\//, '');
    const body = {
      contents: [{ role: 'user', parts: [{ text: request.prompt }] }],
      generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: request.aspectRatio } },
    };
    const data = await this.postForObject(`/v1beta/models/${encodeURIComponent(id)}:generateContent`, body, id, signal);
    const candidate = asRecord(asArray(data.candidates)?.[0]);
    if (!candidate) {
      const blocked = asRecord(data.promptFeedback)?.blockReason;
      if (typeof blocked === 'string') throw new ProviderFailure(`gemini blocked the image prompt (${blocked})`, this.provider, null);
      throw malformed(this.provider, 'missing candidates[0]');
    }
    const parts = (asArray(asRecord(candidate.content)?.parts) ?? []).map((part) => asRecord(part));
    // The REST API writes camelCase; snake_case is accepted as the SDKs' own serialisation.
    const inline = parts.map((part) => asRecord(part?.inlineData) ?? asRecord(part?.inline_data)).find((value) => value !== undefined);
    if (!inline) {
      const reason = String(candidate.finishReason ?? 'unknown');
      throw new ProviderFailure(`gemini returned no image (finishReason ${reason})`, this.provider, null);
    }
    const mime = inline.mimeType ?? inline.mime_type;
    const usage = asRecord(data.usageMetadata);
    return {
      bytes: decodeBase64Image(this.provider, inline.data, 'candidates[0].content.parts[].inlineData.data'),
      mimeType: typeof mime === 'string' && mime.trim() !== '' ? mime.split(';')[0]!.trim().toLowerCase() : null,
      usage: {
        inputTokens: asCount(usage?.promptTokenCount),
        outputTokens: asCount(usage?.candidatesTokenCount) + asCount(usage?.thoughtsTokenCount),
      },
    };
  }
}
