import { AdapterOptions, asArray, asCount, asRecord, malformed, withJsonInstruction } from '../http/provider-http';
import type { LlmPort, LlmRequest, LlmResponse } from '../ports';
import { ProviderFailure } from '../provider-errors';
import { VendorApi } from './vendor-api';

export const OPENAI_BASE_URL = 'https://api.openai.com';

// Reasoning models (gpt-5*, o-series) reject any temperature but the default.
const REASONING_MODEL = /^(gpt-5|o\d)/;
// Pro models are served by the Responses API only.
const RESPONSES_ONLY_MODEL = /^(gpt-5[^-]*|o\d+)-pro(-|$)/;

/** OpenAI Chat Completions, or the Responses API for models only served there. */
export class OpenAiAdapter extends VendorApi implements LlmPort {
  readonly provider = 'openai';

  constructor(options: AdapterOptions) {
    super(options, OPENAI_BASE_URL, 'OPENAI_API_KEY');
  }

  protected authHeaders(): Record<string, string> {
    return { authorization: `Bearer ${this.options.apiKey}` };
  }

  complete(request: LlmRequest, signal?: AbortSignal): Promise<LlmResponse> {
    return RESPONSES_ONLY_MODEL.test(request.model) ? this.viaResponses(request, signal) : this.viaChat(request, signal);
  }

  private async viaChat(request: LlmRequest, signal?: AbortSignal): Promise<LlmResponse> {
    // json_object mode is refused unless the prompt itself mentions JSON.
    const system = withJsonInstruction(request.system, request.json);
    const body = {
      model: request.model,
      messages: [
        ...(system ? [{ role: 'system', content: system }] : []),
        ...request.messages.map(({ role, content }) => ({ role, content })),
      ],
      max_completion_tokens: request.maxTokens,
      ...(request.temperature !== undefined && !REASONING_MODEL.test(request.model) ? { temperature: request.temperature } : {}),
      ...(request.json ? { response_format: { type: 'json_object' } } : {}),
    };
    const data = await this.postForObject('/v1/chat/completions', body, request.model, signal);
    const choice = asRecord(asArray(data.choices)?.[0]);
    const message = asRecord(choice?.message);
    if (!choice || !message) throw malformed(this.provider, 'missing choices[0].message');
    if (typeof message.refusal === 'string' && message.refusal !== '') {
      throw new ProviderFailure(`openai refused the request: ${message.refusal}`, this.provider, null);
    }
    const text = typeof message.content === 'string' ? message.content : '';
    if (text === '' && choice.finish_reason === 'length') {
      throw new ProviderFailure(
        `openai used the whole max_completion_tokens (${request.maxTokens}) before writing any text; raise maxTokens`,
        this.provider,
        null,
      );
    }
    const usage = asRecord(data.usage);
    if (!usage) throw malformed(this.provider, 'missing usage');
    return { text, usage: { inputTokens: asCount(usage.prompt_tokens), outputTokens: asCount(usage.completion_tokens) } };
  }

  private async viaResponses(request: LlmRequest, signal?: AbortSignal): Promise<LlmResponse> {
    const instructions = withJsonInstruction(request.system, request.json);
    const body = {
      model: request.model,
      ...(instructions ? { instructions } : {}),
      input: request.messages.map(({ role, content }) => ({ role, content })),
      max_output_tokens: request.maxTokens,
      ...(request.json ? { text: { format: { type: 'json_object' } } } : {}),
    };
    const data = await this.postForObject('/v1/responses', body, request.model, signal);
    const output = asArray(data.output);
    if (!output) throw malformed(this.provider, 'missing output[]');
    const parts: string[] = [];
    for (const item of output) {
      const record = asRecord(item);
      if (record?.type !== 'message') continue;
      for (const part of asArray(record.content) ?? []) {
        const content = asRecord(part);
        if (content?.type === 'output_text' && typeof content.text === 'string') parts.push(content.text);
        if (content?.type === 'refusal' && typeof content.refusal === 'string') {
          throw new ProviderFailure(`openai refused the request: ${content.refusal}`, this.provider, null);
        }
      }
    }
    const text = parts.join('');
    if (text === '' && data.status === 'incomplete') {
      const reason = String(asRecord(data.incomplete_details)?.reason ?? 'unknown');
      throw new ProviderFailure(`openai response incomplete (${reason}) before any text was written`, this.provider, null);
    }
    const usage = asRecord(data.usage);
    if (!usage) throw malformed(this.provider, 'missing usage');
    return { text, usage: { inputTokens: asCount(usage.input_tokens), outputTokens: asCount(usage.output_tokens) } };
  }

}
