/** Provider ports the engine phases talk to; adapters in this folder implement them over each vendor's HTTP API. */
export interface LlmMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface LlmRequest {
  /** The vendor's model id (`model_id` in the catalogue), not our id. */
  model: string;
  system?: string;
  messages: LlmMessage[];
  maxTokens: number;
  temperature?: number;
  /** Ask for a single JSON object as the reply (native JSON mode where the vendor has one, an instruction otherwise). */
  json?: boolean;
}

export interface LlmResponse {
  text: string;
  usage: { inputTokens: number; outputTokens: number };
}

export interface LlmPort {
  readonly provider: string;
  complete(request: LlmRequest, signal?: AbortSignal): Promise<LlmResponse>;
}

export interface SearchResult {
  url: string;
  title: string;
  snippet: string;
  publishedAt?: string;
}

export interface SearchUsage {
  requests: number;
  inputTokens?: number;
  outputTokens?: number;
}

export interface SearchPort {
  readonly provider: string;
  search(
    query: string,
    options: { maxResults: number; model?: string },
    signal?: AbortSignal,
  ): Promise<{ results: SearchResult[]; usage: SearchUsage }>;
}

export interface FetchedPage {
  /** The final URL after redirects. */
  url: string;
  status: number;
  title: string | null;
  text: string;
}

export interface FetchPort {
  readonly provider: string;
  fetch(url: string, signal?: AbortSignal): Promise<FetchedPage>;
}

export interface TranslateOptions {
  /**
   * `xml`: the texts are XML fragments (`&`, `<`, `>` escaped) whose tags, such as the `<x id="N"/>` citation
   * placeholders, must come back unchanged.
   */
  format?: 'text' | 'xml';
}

export interface TranslationPort {
  readonly provider: string;
  /** `targetLanguage` is one of our codes (fr, de, es, it, zh, ja, pt); the result keeps the input order. */
  translate(
    texts: string[],
    targetLanguage: string,
    signal?: AbortSignal,
    options?: TranslateOptions,
  ): Promise<{ texts: string[]; usage: { characters: number } }>;
}
