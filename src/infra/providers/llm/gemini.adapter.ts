import { AdapterOptions, asArray, asCount, asRecord, malformed } from '../http/provider-http';
import type { LlmPort, LlmRequest, LlmResponse, SearchPort, SearchResult, SearchUsage } from '../ports';
import { ProviderFailure } from '../provider-errors';
import { VendorApi } from './vendor-api';

export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';
export const GEMINI_SEARCH_MODEL = 'gemini-2.5-flash';

/** Gemini API generateContent; search uses Grounding with Google Search. */
export class GeminiAdapter extends VendorApi implements LlmPort, SearchPort {
  readonly provider = 'gemini';

  constructor(options: AdapterOptions) {
    super(options, GEMINI_BASE_URL, 'GEMINI_API_KEY');
  }

  protected authHeaders(): Record<string, string> {
    return { 'x-goog-api-key': this.options.apiKey };
  }

  async complete(request: LlmRequest, signal?: AbortSignal): Promise<LlmResponse> {
    const body = {
      ...(request.system ? { systemInstruction: { parts: [{ text: request.system }] } } : {}),
      contents: request.messages.map(({ role, content }) => ({
        role: role === 'assistant' ? 'model' : 'user',
        parts: [{ text: content }],
      })),
      generationConfig: {
        maxOutputTokens: request.maxTokens,
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        ...(request.json ? { responseMimeType: 'application/json' } : {}),
      },
    };
    const data = await this.generate(request.model, body, signal);
    const { candidate, text } = this.candidateText(data);
    if (text === '') {
      const reason = String(candidate.finishReason ?? 'unknown');
      const hint = reason === 'MAX_TOKENS' ? `; maxOutputTokens (${request.maxTokens}) was used up, thinking included` : '';
      throw new ProviderFailure(`gemini returned no text (finishReason ${reason})${hint}`, this.provider, null);
    }
    return { text, usage: usageOf(data) };
  }

  async search(
    query: string,
    options: { maxResults: number; model?: string },
    signal?: AbortSignal,
  ): Promise<{ results: SearchResult[]; usage: SearchUsage }> {
    const body = {
      contents: [{ role: 'user', parts: [{ text: `Find authoritative, recent sources on: ${query}\nSummarise briefly.` }] }],
      tools: [{ google_search: {} }],
    };
    const data = await this.generate(options.model ?? GEMINI_SEARCH_MODEL, body, signal);
    const { candidate } = this.candidateText(data);
    const grounding = asRecord(candidate.groundingMetadata);
    const chunks = asArray(grounding?.groundingChunks) ?? [];
    const snippets = new Map<number, string[]>();
    for (const support of asArray(grounding?.groundingSupports) ?? []) {
      const record = asRecord(support);
      const segment = asRecord(record?.segment)?.text;
      if (typeof segment !== 'string') continue;
      for (const index of asArray(record?.groundingChunkIndices) ?? []) {
        if (typeof index === 'number') snippets.set(index, [...(snippets.get(index) ?? []), segment]);
      }
    }
    const results: SearchResult[] = [];
    const seen = new Set<string>();
    chunks.forEach((chunk, index) => {
      const web = asRecord(asRecord(chunk)?.web);
      if (!web || typeof web.uri !== 'string' || seen.has(web.uri)) return;
      seen.add(web.uri);
      // Grounding URIs are redirects; the title is the source's domain.
      results.push({
        url: web.uri,
        title: typeof web.title === 'string' ? web.title : web.uri,
        snippet: (snippets.get(index) ?? []).join(' '),
      });
    });
    const usage = usageOf(data);
    return { results: results.slice(0, options.maxResults), usage: { requests: 1, ...usage } };
  }

  private candidateText(data: Record<string, unknown>): { candidate: Record<string, unknown>; text: string } {
    const candidates = asArray(data.candidates);
    const candidate = asRecord(candidates?.[0]);
    if (!candidate) {
      const blocked = asRecord(data.promptFeedback)?.blockReason;
      if (typeof blocked === 'string') throw new ProviderFailure(`gemini blocked the prompt (${blocked})`, this.provider, null);
      throw malformed(this.provider, 'missing candidates[0]');
    }
    const parts = asArray(asRecord(candidate.content)?.parts) ?? [];
    const text = parts
      .map((part) => asRecord(part))
      .filter((part) => part && part.thought !== true && typeof part.text === 'string')
      .map((part) => part!.text as string)
      .join('');
    return { candidate, text };
  }

  private async generate(model: string, body: unknown, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const id = model.replace(/^models\//, '');
    return this.postForObject(`/v1beta/models/${encodeURIComponent(id)}:generateContent`, body, id, signal);
  }
}

function usageOf(data: Record<string, unknown>): { inputTokens: number; outputTokens: number } {
  const usage = asRecord(data.usageMetadata);
  if (!usage) throw malformed('gemini', 'missing usageMetadata');
  // Thinking tokens are billed as output but are not part of candidatesTokenCount.
  return {
    inputTokens: asCount(usage.promptTokenCount) + asCount(usage.toolUsePromptTokenCount),
    outputTokens: asCount(usage.candidatesTokenCount) + asCount(usage.thoughtsTokenCount),
  };
}
