import { asArray, asRecord, malformed, withJsonInstruction } from '../http/provider-http';
import type { LlmPort, LlmRequest, LlmResponse } from '../ports';
import { ProviderFailure } from '../provider-errors';
import { VendorApi } from './vendor-api';

export interface OpenAiCompatibleAdapterOptions {
  /** Where the server's OpenAI API lives, e.g. `http://localhost:11434/v1` (Ollama), `http://vllm:8000/v1`. */
  baseUrl: string;
  /** Optional: most local servers need none. */
  apiKey?: string;
  /** `azure`: deployment in the path, `api-version` query, `api-key` header (Azure OpenAI). */
  apiStyle?: 'openai' | 'azure';
  apiVersion?: string;
  timeoutMs?: number;
}

/** The usual rule of thumb for English text with the tokenizers of current models. */
const CHARACTERS_PER_TOKEN = 4;

/**
 * Self-hosted models through the Chat Completions API that vLLM, Ollama, LM Studio, llama.cpp and Azure OpenAI all
 * serve (docs/decisions.md "Self-hosted models"). Only the widely implemented subset is sent: messages, max_tokens,
 * temperature and json_object mode, the last dropped for good when the server refuses it.
 */
export class OpenAiCompatibleAdapter extends VendorApi implements LlmPort {
  readonly provider = 'openai-compatible';
  private readonly style: 'openai' | 'azure';
  private readonly apiVersion: string;
  /** Set once the server has refused `response_format` and answered without it. */
  private jsonModeRefused = false;

  constructor(private readonly settings: OpenAiCompatibleAdapterOptions) {
    super({ apiKey: settings.apiKey ?? '', baseUrl: settings.baseUrl, timeoutMs: settings.timeoutMs }, settings.baseUrl, 'OPENAI_COMPATIBLE_API_KEY');
    this.style = settings.apiStyle ?? 'openai';
    this.apiVersion = settings.apiVersion ?? '';
  }

  protected authHeaders(): Record<string, string> {
    const key = this.settings.apiKey?.trim();
    if (!key) return {};
    return this.style === 'azure' ? { 'api-key': key } : { authorization: `Bearer ${key}` };
  }

  async complete(request: LlmRequest, signal?: AbortSignal): Promise<LlmResponse> {
    // The instruction stays in the prompt either way: it is all a server without JSON mode gets.
    const system = withJsonInstruction(request.system, request.json);
    const messages = [
      ...(system ? [{ role: 'system', content: system }] : []),
      ...request.messages.map(({ role, content }) => ({ role, content })),
    ];
    const body = {
      model: request.model,
      messages,
      // max_tokens, not max_completion_tokens: the one every compatible server reads.
      max_tokens: request.maxTokens,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    };
    const data = await this.send(body, request, signal);
    const choice = asRecord(asArray(data.choices)?.[0]);
    const message = asRecord(choice?.message);
    if (!choice || !message) throw malformed(this.provider, 'missing choices[0].message');
    const text = typeof message.content === 'string' ? message.content : '';
    if (text === '' && choice.finish_reason === 'length') {
      throw new ProviderFailure(
        `${this.provider} used the whole max_tokens (${request.maxTokens}) before writing any text; raise maxTokens`,
        this.provider,
        null,
      );
    }
    return { text, usage: usageOf(data, messages, text) };
  }

  /** With JSON mode first when asked for; a 400 or 422 to it is retried once without (LM Studio, older servers). */
  private async send(body: Record<string, unknown>, request: LlmRequest, signal?: AbortSignal): Promise<Record<string, unknown>> {
    if (!request.json || this.jsonModeRefused) return this.chat(body, request.model, signal);
    try {
      return await this.chat({ ...body, response_format: { type: 'json_object' } }, request.model, signal);
    } catch (error) {
      if (!(error instanceof ProviderFailure) || (error.status !== 400 && error.status !== 422)) throw error;
      const reply = await this.chat(body, request.model, signal);
      this.jsonModeRefused = true;
      return reply;
    }
  }

  private chat(body: Record<string, unknown>, model: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const path =
      this.style === 'azure'
        ? `/openai/deployments/${encodeURIComponent(model)}/chat/completions?api-version=${encodeURIComponent(this.apiVersion)}`
        : '/chat/completions';
    return this.postForObject(path, body, model, signal);
  }
}

/** The server's token counts; some local servers send none, and then they are estimated from the characters. */
function usageOf(data: Record<string, unknown>, messages: Array<{ content: string }>, text: string): LlmResponse['usage'] {
  const usage = asRecord(data.usage);
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);
  const estimate = (characters: number) => Math.ceil(characters / CHARACTERS_PER_TOKEN);
  return {
    inputTokens: count(usage?.prompt_tokens) ?? estimate(messages.reduce((sum, message) => sum + message.content.length, 0)),
    outputTokens: count(usage?.completion_tokens) ?? estimate(text.length),
  };
}
