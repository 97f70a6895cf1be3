import { AdapterOptions, asArray, asCount, asRecord, malformed, withJsonInstruction } from '../http/provider-http';
import type { LlmPort, LlmRequest, LlmResponse, SearchPort, SearchResult, SearchUsage } from '../ports';
import { VendorApi } from './vendor-api';

export const PERPLEXITY_BASE_URL = 'https://api.perplexity.ai';
export const PERPLEXITY_SEARCH_MODEL = 'sonar';
const SEARCH_SYSTEM =
  'You are a research assistant. Find authoritative, recent primary sources (regulators, official journals) and answer briefly.';

/** Perplexity Sonar chat completions: an LLM whose every answer is grounded in a web search. */
export class PerplexityAdapter extends VendorApi implements LlmPort, SearchPort {
  readonly provider = 'perplexity';

  constructor(options: AdapterOptions) {
    super(options, PERPLEXITY_BASE_URL, 'PERPLEXITY_API_KEY');
  }

  protected authHeaders(): Record<string, string> {
    return { authorization: `Bearer ${this.options.apiKey}` };
  }

  async complete(request: LlmRequest, signal?: AbortSignal): Promise<LlmResponse> {
    // Sonar has no json_object mode (only json_schema), so JSON is asked for in the prompt.
    const system = withJsonInstruction(request.system, request.json);
    const data = await this.chat(
      {
        model: request.model,
        messages: [
          ...(system ? [{ role: 'system', content: system }] : []),
          ...request.messages.map(({ role, content }) => ({ role, content })),
        ],
        max_tokens: request.maxTokens,
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      },
      request.model,
      signal,
    );
    return { text: stripThinking(messageText(data)), usage: usageOf(data) };
  }

  async search(
    query: string,
    options: { maxResults: number; model?: string },
    signal?: AbortSignal,
  ): Promise<{ results: SearchResult[]; usage: SearchUsage }> {
    const model = options.model ?? PERPLEXITY_SEARCH_MODEL;
    const data = await this.chat(
      {
        model,
        messages: [
          { role: 'system', content: SEARCH_SYSTEM },
          { role: 'user', content: query },
        ],
        max_tokens: 512,
      },
      model,
      signal,
    );
    messageText(data);
    const results: SearchResult[] = [];
    const seen = new Set<string>();
    for (const entry of asArray(data.search_results) ?? []) {
      const hit = asRecord(entry);
      if (!hit || typeof hit.url !== 'string' || seen.has(hit.url)) continue;
      seen.add(hit.url);
      results.push({
        url: hit.url,
        title: typeof hit.title === 'string' && hit.title !== '' ? hit.title : hostOf(hit.url),
        snippet: typeof hit.snippet === 'string' ? hit.snippet : '',
        ...(typeof hit.date === 'string' && hit.date !== '' ? { publishedAt: hit.date } : {}),
      });
    }
    // Older responses carry only `citations`, a bare URL list.
    for (const url of asArray(data.citations) ?? []) {
      if (typeof url !== 'string' || seen.has(url)) continue;
      seen.add(url);
      results.push({ url, title: hostOf(url), snippet: '' });
    }
    const usage = usageOf(data);
    return { results: results.slice(0, options.maxResults), usage: { requests: 1, ...usage } };
  }

  private async chat(body: unknown, model: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return this.postForObject('/chat/completions', body, model, signal);
  }
}

function messageText(data: Record<string, unknown>): string {
  const message = asRecord(asRecord(asArray(data.choices)?.[0])?.message);
  if (!message || typeof message.content !== 'string') throw malformed('perplexity', 'missing choices[0].message.content');
  return message.content;
}

// Reasoning models put their chain of thought in a leading <think> block of the content.
function stripThinking(text: string): string {
  const end = text.trimStart().startsWith('<think>') ? text.indexOf('</think>') : -1;
  return end === -1 ? text : text.slice(end + '</think>'.length).trimStart();
}

function usageOf(data: Record<string, unknown>): { inputTokens: number; outputTokens: number } {
  const usage = asRecord(data.usage);
  if (!usage) throw malformed('perplexity', 'missing usage');
  return { inputTokens: asCount(usage.prompt_tokens), outputTokens: asCount(usage.completion_tokens) };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}
