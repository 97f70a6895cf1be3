/**
 * Text to speech over the ElevenLabs public API wire format.
 *
 * Monologue: POST {base}/v1/text-to-speech/{voice_id}?output_format=mp3_44100_128, header `xi-api-key`,
 *   JSON {text, model_id, language_code?} -> audio/mpeg bytes.
 * Dialogue:  POST {base}/v1/text-to-dialogue?output_format=mp3_44100_128, same header,
 *   JSON {inputs: [{text, voice_id}], model_id, language_code?} -> audio/mpeg bytes.
 *
 * Errors: 401/403 -> ProviderFailure "the voice integration rejected its API key"; 429/5xx/network/timeouts ->
 * ProviderTransientError; other 4xx -> ProviderFailure with the provider's detail (keys redacted); a body that is
 * not MP3 -> ProviderFailure.
 */
import { malformed, requestBytes } from '../http/provider-http';
import type { IntegrationCredentials, SpeechRequest, VoicePort } from '../ports';

export const VOICE_PROVIDER_NAME = 'voice';
export const DEFAULT_VOICE_BASE_URL = 'https://api.elevenlabs.io';
export const VOICE_OUTPUT_FORMAT = 'mp3_44100_128';
export const VOICE_TIMEOUT_MS = 180_000;
export const VOICE_MAX_AUDIO_BYTES = 100 * 1024 * 1024;
export const VOICE_AUTH_MESSAGE = 'the voice integration rejected its API key';

export interface VoiceAdapterOptions {
  timeoutMs?: number;
}

/** MPEG audio: an ID3v2 tag or an MPEG frame sync (11 set bits). */
export function looksLikeMp3(bytes: Buffer): boolean {
  if (bytes.length >= 3 && bytes.toString('latin1', 0, 3) === 'ID3') return true;
  return bytes.length >= 2 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0;
}

export class ElevenLabsVoiceAdapter implements VoicePort {
  readonly provider = VOICE_PROVIDER_NAME;

  constructor(private readonly options: VoiceAdapterOptions = {}) {}

  async speak(request: SpeechRequest, credentials: IntegrationCredentials, signal?: AbortSignal): Promise<{ bytes: Buffer; contentType: string }> {
    const query = `?output_format=${VOICE_OUTPUT_FORMAT}`;
    const { url, body } =
      request.kind === 'monologue'
        ? {
            url: `${credentials.baseUrl}/v1/text-to-speech/${encodeURIComponent(request.voiceId)}${query}`,
            body: { text: request.text, model_id: request.modelId } as Record<string, unknown>,
          }
        : {
            url: `${credentials.baseUrl}/v1/text-to-dialogue${query}`,
            body: { inputs: request.lines.map((line) => ({ text: line.text, voice_id: line.voiceId })), model_id: request.modelId } as Record<
              string,
              unknown
            >,
          };
    if (request.languageCode) body.language_code = request.languageCode;
    const response = await requestBytes({
      provider: VOICE_PROVIDER_NAME,
      url,
      method: 'POST',
      headers: { 'xi-api-key': credentials.apiKey, accept: 'audio/mpeg' },
      body,
      timeoutMs: this.options.timeoutMs ?? VOICE_TIMEOUT_MS,
      signal,
      secrets: [credentials.apiKey],
      authMessage: VOICE_AUTH_MESSAGE,
      maxBytes: VOICE_MAX_AUDIO_BYTES,
    });
    if (response.bytes.length === 0 || !looksLikeMp3(response.bytes)) {
      throw malformed(VOICE_PROVIDER_NAME, `expected MP3 audio, got ${response.bytes.length} bytes of ${response.contentType || 'unknown type'}`);
    }
    return { bytes: response.bytes, contentType: response.contentType };
  }
}
