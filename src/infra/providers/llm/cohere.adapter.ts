import { AdapterOptions, DEFAULT_TIMEOUT_MS, asArray, asCount, asRecord, malformed, requestJson, trimBase } from '../http/provider-http';
import type { LlmPort, LlmRequest, LlmResponse } from '../ports';
import { ProviderFailure } from '../provider-errors';

export const COHERE_BASE_URL = 'https://api.cohere.com';

/** Cohere Chat API v2. */
export class CohereAdapter implements LlmPort {
  readonly provider = 'cohere';
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: AdapterOptions) {
    this.baseUrl = trimBase(options.baseUrl ?? COHERE_BASE_URL);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
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
      await requestJson({
        provider: this.provider,
        url: `${this.baseUrl}/v2/chat`,
        headers: { authorization: `Bearer ${this.options.apiKey}` },
        body,
        timeoutMs: this.timeoutMs,
        signal,
        secrets: [this.options.apiKey],
        envKey: 'COHERE_API_KEY',
        subject: `model ${request.model}`,
      }),
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
