import { AdapterOptions, asArray, asCount, asRecord, malformed } from '../http/provider-http';
import type { LlmPort, LlmRequest, LlmResponse } from '../ports';
import { ProviderFailure } from '../provider-errors';
import { VendorApi } from './vendor-api';

export const COHERE_BASE_URL = 'https://api.cohere.com';

/** Cohere Chat API v2. */
export class CohereAdapter extends VendorApi implements LlmPort {
  readonly provider = 'cohere';

  constructor(options: AdapterOptions) {
    super(options, COHERE_BASE_URL, 'COHERE_API_KEY');
  }

  protected authHeaders(): Record<string, string> {
    return { authorization: `Bearer ${this.options.apiKey}` };
  }

  async complete(request: LlmRequest, signal?: AbortSignal): Promise<LlmResponse> {
    const body = {
      model: request.model,
      messages: [
        ...(request.system ? [{ role: 'system', content: request.system }] : []),
        ...request.messages.map(({ role, content }) => ({ role, content })),
      ],
      max_tokens: request.maxTokens,
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.json ? { response_format: { type: 'json_object' } } : {}),
    };
    const data = asRecord(
      await this.post('/v2/chat', body, request.model, signal),
    );
    const content = asArray(asRecord(data?.message)?.content);
    if (!data || !content) throw malformed(this.provider, 'missing message.content[]');
    // Reasoning models add `thinking` parts, which are not the answer.
    const text = content
      .map((part) => asRecord(part))
      .filter((part) => part?.type === 'text' && typeof part.text === 'string')
      .map((part) => part!.text as string)
      .join('');
    if (text === '' && data.finish_reason === 'MAX_TOKENS') {
      throw new ProviderFailure(`cohere stopped at max_tokens (${request.maxTokens}) before writing any text`, this.provider, null);
    }
    const usage = asRecord(data.usage);
    // billed_units is what is charged; tokens is the raw count and the fallback.
    const counts = asRecord(usage?.billed_units) ?? asRecord(usage?.tokens);
    if (!counts) throw malformed(this.provider, 'missing usage');
    return { text, usage: { inputTokens: asCount(counts.input_tokens), outputTokens: asCount(counts.output_tokens) } };
  }
}
