import { AdapterOptions, asArray, asCount, asRecord, malformed, withJsonInstruction } from '../http/provider-http';
import type { LlmPort, LlmRequest, LlmResponse, SearchPort, SearchResult, SearchUsage } from '../ports';
import { ProviderFailure, ProviderTransientError } from '../provider-errors';
import { VendorApi } from './vendor-api';

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';
export const ANTHROPIC_SEARCH_MODEL = 'claude-haiku-4-5-20251001';
const WEB_SEARCH_TOOL = 'web_search_20250305';

/** Claude Messages API; search runs the server-side web search tool. */
export class AnthropicAdapter extends VendorApi implements LlmPort, SearchPort {
  readonly provider = 'anthropic';

  constructor(options: AdapterOptions) {
    super(options, ANTHROPIC_BASE_URL, 'ANTHROPIC_API_KEY');
  }

  protected authHeaders(): Record<string, string> {
    return { 'x-api-key': this.options.apiKey, 'anthropic-version': ANTHROPIC_VERSION };
  }

  async complete(request: LlmRequest, signal?: AbortSignal): Promise<LlmResponse> {
    // The Messages API has no JSON mode, so JSON is asked for in the system prompt.
    const system = withJsonInstruction(request.system, request.json);
    const data = await this.messages(
      {
        model: request.model,
        max_tokens: request.maxTokens,
        ...(system ? { system } : {}),
        messages: request.messages.map(({ role, content }) => ({ role, content })),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      },
      request.model,
      signal,
    );
    const blocks = contentBlocks(data);
    const text = blocks
      .filter((block) => block.type === 'text' && typeof block.text === 'string')
      .map((block) => block.text as string)
      .join('');
    if (text === '' && data.stop_reason === 'max_tokens') {
      throw new ProviderFailure(`anthropic stopped at max_tokens (${request.maxTokens}) before writing any text`, this.provider, null);
    }
    return { text, usage: usageOf(data) };
  }

  async search(
    query: string,
    options: { maxResults: number; model?: string },
    signal?: AbortSignal,
  ): Promise<{ results: SearchResult[]; usage: SearchUsage }> {
    const model = options.model ?? ANTHROPIC_SEARCH_MODEL;
    const data = await this.messages(
      {
        model,
        max_tokens: 1024,
        messages: [
          {
            role: 'user',
            content: `Search the web for authoritative, recent sources on: ${query}\nList the most relevant sources briefly.`,
          },
        ],
        tools: [{ type: WEB_SEARCH_TOOL, name: 'web_search', max_uses: 1 }],
      },
      model,
      signal,
    );
    const blocks = contentBlocks(data);
    const snippets = new Map<string, string>();
    for (const block of blocks) {
      for (const citation of asArray(block.citations) ?? []) {
        const record = asRecord(citation);
        if (record && typeof record.url === 'string' && typeof record.cited_text === 'string' && !snippets.has(record.url)) {
          snippets.set(record.url, record.cited_text);
        }
      }
    }
    const results: SearchResult[] = [];
    const seen = new Set<string>();
    let toolResults = 0;
    let errorCode: string | undefined;
    for (const block of blocks) {
      if (block.type !== 'web_search_tool_result') continue;
      toolResults += 1;
      const content = block.content;
      if (!Array.isArray(content)) {
        errorCode = String(asRecord(content)?.error_code ?? 'unknown');
        continue;
      }
      for (const entry of content) {
        const hit = asRecord(entry);
        if (!hit || hit.type !== 'web_search_result' || typeof hit.url !== 'string' || seen.has(hit.url)) continue;
        seen.add(hit.url);
        results.push({
          url: hit.url,
          title: typeof hit.title === 'string' ? hit.title : hit.url,
          snippet: snippets.get(hit.url) ?? '',
          ...(typeof hit.page_age === 'string' ? { publishedAt: hit.page_age } : {}),
        });
      }
    }
    if (results.length === 0 && errorCode) {
      const message = `anthropic web search failed: ${errorCode}`;
      if (errorCode === 'too_many_requests' || errorCode === 'unavailable') throw new ProviderTransientError(message, this.provider, null);
      throw new ProviderFailure(message, this.provider, null);
    }
    const usage = usageOf(data);
    const searches = asCount(asRecord(asRecord(data.usage)?.server_tool_use)?.web_search_requests);
    return {
      results: results.slice(0, options.maxResults),
      usage: { requests: searches || toolResults, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens },
    };
  }

  private messages(body: Record<string, unknown>, model: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return this.postForObject('/v1/messages', body, model, signal);
  }
}

function contentBlocks(data: Record<string, unknown>): Array<Record<string, unknown>> {
  const content = asArray(data.content);
  if (!content) throw malformed('anthropic', 'missing content[]');
  return content.map((block) => asRecord(block) ?? {});
}

function usageOf(data: Record<string, unknown>): { inputTokens: number; outputTokens: number } {
  const usage = asRecord(data.usage);
  if (!usage) throw malformed('anthropic', 'missing usage');
  // Cache reads and writes are billed as input too.
  const inputTokens = asCount(usage.input_tokens) + asCount(usage.cache_creation_input_tokens) + asCount(usage.cache_read_input_tokens);
  return { inputTokens, outputTokens: asCount(usage.output_tokens) };
}
