/**
 * Voice exports (voice-briefing: podcast-briefing; voice-discussion: podcast-discussion) over the ElevenLabs public
 * API wire format.
 *
 * Integration config (account integration `voicePodcast`):
 *   { apiKey: string (required), baseUrl?: string (default https://api.elevenlabs.io),
 *     voiceId?: string (narrator / host), secondVoiceId?: string (analyst) }
 *
 * Briefing: POST {base}/v1/text-to-speech/{voice_id}?output_format=mp3_44100_128, header `xi-api-key`,
 *   JSON {text, model_id, language_code?} -> audio/mpeg bytes.
 *   voice_id: options.voiceId, else config.voiceId, else DEFAULT_NARRATOR_VOICE_ID.
 *   model_id: options.modelId (alias model_id), else DEFAULT_TTS_MODEL_ID.
 * Discussion: POST {base}/v1/text-to-dialogue?output_format=mp3_44100_128, same header,
 *   JSON {inputs: [{text, voice_id}], model_id, language_code?} -> audio/mpeg bytes; host lines use config.voiceId
 *   (else DEFAULT_HOST_VOICE_ID), analyst lines config.secondVoiceId (else DEFAULT_ANALYST_VOICE_ID);
 *   model_id: options.modelId, else DEFAULT_DIALOGUE_MODEL_ID.
 * language_code (ISO 639-1) is sent only for a translated locale (fr de es it zh ja); `en` and `simple` omit it.
 *
 * Cost: VOICE_PRICE_CENTS_PER_CHARACTER per character sent (list price of about $0.30 per 1,000 characters),
 * rounded up to whole cents.
 *
 * Errors: 401/403 -> EngineFailure "the voice integration rejected its API key"; 429/5xx/network/timeouts ->
 * ProviderTransientError; other 4xx -> EngineFailure with the provider's detail (keys redacted); audio labelled as
 * anything but audio/mpeg (or a generic type) -> EngineFailure.
 */
import { malformed, requestBytes } from '../../../infra/providers/http/provider-http';
import { scanDateOf } from '../renderers/render-dates';
import { configBaseUrl, configString, looksLikeMp3, resultMediaType } from './media-http';
import type { ProviderExportAdapter, ProviderExportInput, ProviderExportResult } from './provider-export.types';
import { briefingScript, dialogueScript, scriptLanguage } from './script';
import { ProviderFailure } from '../../../infra/providers/provider-errors';

export const VOICE_PROVIDER_NAME = 'voice';
export const DEFAULT_VOICE_BASE_URL = 'https://api.elevenlabs.io';
export const VOICE_OUTPUT_FORMAT = 'mp3_44100_128';
export const DEFAULT_TTS_MODEL_ID = 'eleven_multilingual_v2';
export const DEFAULT_DIALOGUE_MODEL_ID = 'eleven_v3';
/** ElevenLabs premade voices: "George" (narrator and host) and "Sarah" (analyst). */
export const DEFAULT_NARRATOR_VOICE_ID = 'JBFqnCBsd6RMkjVDRZzb';
export const DEFAULT_HOST_VOICE_ID = DEFAULT_NARRATOR_VOICE_ID;
export const DEFAULT_ANALYST_VOICE_ID = 'EXAVITQu4vr4xnAvG1Ky';
/** Cents per character of text sent (0.03 cents = $0.30 per 1,000 characters). */
export const VOICE_PRICE_CENTS_PER_CHARACTER = 0.03;
export const VOICE_TIMEOUT_MS = 180_000;
export const VOICE_MAX_AUDIO_BYTES = 100 * 1024 * 1024;
export const VOICE_AUTH_MESSAGE = 'the voice integration rejected its API key';

export type VoiceMode = 'briefing' | 'discussion';

const VOICE_EXPORT_TYPES: Readonly<Record<VoiceMode, { provider: string; artifactType: string }>> = {
  briefing: { provider: 'voice-briefing', artifactType: 'podcast-briefing' },
  discussion: { provider: 'voice-discussion', artifactType: 'podcast-discussion' },
};

export interface VoiceAdapterOptions {
  timeoutMs?: number;
}

/** Whole cents for `characters` characters of speech, rounded up. */
export function voiceCostCents(characters: number): number {
  // Rounded to a millionth first so binary floating point never tips an exact amount up a cent.
  return Math.max(0, Math.ceil(Math.round(characters * VOICE_PRICE_CENTS_PER_CHARACTER * 1e6) / 1e6));
}

interface VoiceConfig {
  apiKey: string;
  baseUrl: string;
  voiceId?: string;
  secondVoiceId?: string;
}

export function parseVoiceConfig(config: Record<string, unknown>): VoiceConfig {
  const apiKey = configString(config ?? {}, 'apiKey');
  if (!apiKey) throw new ProviderFailure('the voice integration has no apiKey configured', VOICE_PROVIDER_NAME, null);
  return {
    apiKey,
    baseUrl: configBaseUrl(VOICE_PROVIDER_NAME, configString(config, 'baseUrl') ?? DEFAULT_VOICE_BASE_URL),
    voiceId: configString(config, 'voiceId'),
    secondVoiceId: configString(config, 'secondVoiceId'),
  };
}

function option(options: Record<string, string> | undefined, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = options?.[name];
    if (typeof value === 'string' && value.trim().length > 0) return value.trim();
  }
  return undefined;
}

export function createVoiceAdapter(mode: VoiceMode, adapterOptions: VoiceAdapterOptions = {}): ProviderExportAdapter {
  return {
    async run(input: ProviderExportInput, integrationConfig: Record<string, unknown>, signal?: AbortSignal): Promise<ProviderExportResult> {
      const config = parseVoiceConfig(integrationConfig);
      const language = scriptLanguage(input.locale);
      const modelOverride = option(input.options, 'modelId', 'model_id');
      const query = `?output_format=${VOICE_OUTPUT_FORMAT}`;
      let url: string;
      let body: Record<string, unknown>;
      let characters: number;
      if (mode === 'briefing') {
        const text = briefingScript(input.snapshot, input.locale);
        const voiceId = option(input.options, 'voiceId') ?? config.voiceId ?? DEFAULT_NARRATOR_VOICE_ID;
        url = `${config.baseUrl}/v1/text-to-speech/${encodeURIComponent(voiceId)}${query}`;
        body = { text, model_id: modelOverride ?? DEFAULT_TTS_MODEL_ID };
        characters = text.length;
      } else {
        const host = config.voiceId ?? DEFAULT_HOST_VOICE_ID;
        const analyst = config.secondVoiceId ?? (host === DEFAULT_ANALYST_VOICE_ID ? DEFAULT_HOST_VOICE_ID : DEFAULT_ANALYST_VOICE_ID);
        const inputs = dialogueScript(input.snapshot, input.locale).map((line) => ({
          text: line.text,
          voice_id: line.speaker === 'host' ? host : analyst,
        }));
        url = `${config.baseUrl}/v1/text-to-dialogue${query}`;
        body = { inputs, model_id: modelOverride ?? DEFAULT_DIALOGUE_MODEL_ID };
        characters = inputs.reduce((sum, line) => sum + line.text.length, 0);
      }
      if (language !== 'en') body.language_code = language;

      const response = await requestBytes({
        provider: VOICE_PROVIDER_NAME,
        url,
        method: 'POST',
        headers: { 'xi-api-key': config.apiKey, accept: 'audio/mpeg' },
        body,
        timeoutMs: adapterOptions.timeoutMs ?? VOICE_TIMEOUT_MS,
        signal,
        secrets: [config.apiKey],
        authMessage: VOICE_AUTH_MESSAGE,
        maxBytes: VOICE_MAX_AUDIO_BYTES,
      });
      const type = resultMediaType(VOICE_PROVIDER_NAME, VOICE_EXPORT_TYPES[mode], [response.contentType]);
      if (response.bytes.length === 0 || !looksLikeMp3(response.bytes)) {
        throw malformed(
          VOICE_PROVIDER_NAME,
          `expected MP3 audio, got ${response.bytes.length} bytes of ${response.contentType || 'unknown type'}`,
        );
      }
      return {
        bytes: response.bytes,
        mime: type.mime,
        filename: `regulatory-${mode}-${scanDateOf(input.snapshot)}.${type.extension}`,
        costCents: voiceCostCents(characters),
      };
    },
  };
}
