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

/** Where an account's own integration is reached: its key and its service's base URL (no trailing slash). */
export interface IntegrationCredentials {
  apiKey: string;
  baseUrl: string;
}

/** One voice reading a text, or several voices reading lines in turn. */
export type SpeechRequest =
  | { kind: 'monologue'; text: string; voiceId: string; modelId: string; languageCode?: string }
  | { kind: 'dialogue'; lines: Array<{ text: string; voiceId: string }>; modelId: string; languageCode?: string };

export interface VoicePort {
  readonly provider: string;
  /** MP3 audio of the request; `contentType` as the service labelled it (lower case, no parameters). */
  speak(request: SpeechRequest, credentials: IntegrationCredentials, signal?: AbortSignal): Promise<{ bytes: Buffer; contentType: string }>;
}

/** A notebook generation job: what to make, from what, in which language. */
export interface NotebookJobRequest {
  kind: string;
  source_markdown: string;
  options: Record<string, string>;
  language: string;
}

/** What a finished job reports; `mime` lower case without parameters. */
export interface NotebookJobResult {
  url: string | null;
  mime: string | null;
  costCents: number | null;
}

export interface NotebookPort {
  readonly provider: string;
  /** Submits the job and waits until it succeeds (its result) or fails (a ProviderFailure). */
  generate(job: NotebookJobRequest, credentials: IntegrationCredentials, signal?: AbortSignal): Promise<{ jobId: string; result: NotebookJobResult }>;
  /**
   * The bytes of a succeeded job's result, retried on transient failures; throws ResultUnavailableError when they
   * cannot be had (the job itself succeeded).
   */
  fetchResult(
    jobId: string,
    result: NotebookJobResult,
    credentials: IntegrationCredentials,
    signal?: AbortSignal,
  ): Promise<{ bytes: Buffer; contentType: string }>;
}

/** One image drawn from a text prompt (image exports). */
export interface ImageGenerationRequest {
  /** The vendor's image model id, e.g. `gpt-image-1`, `gemini-2.5-flash-image`. */
  model: string;
  prompt: string;
  /** Width:height of the page to draw; each adapter maps it onto the sizes its vendor offers. */
  aspectRatio: '2:3' | '4:5' | '1:1';
}

export interface ImageGenerationResult {
  /** The decoded image bytes exactly as the vendor sent them (not yet checked to be an image). */
  bytes: Buffer;
  /** The media type the vendor labelled them with (lower case, no parameters); null when it named none. */
  mimeType: string | null;
  /** Tokens billed for the image (prompt text in, image out); zeros when the vendor reported none. */
  usage: { inputTokens: number; outputTokens: number };
}

export interface ImagePort {
  readonly provider: string;
  generate(request: ImageGenerationRequest, signal?: AbortSignal): Promise<ImageGenerationResult>;
}
