/**
 * Voice exports (voice-briefing: podcast-briefing; voice-discussion: podcast-discussion): the script from the
 * snapshot, the voices and the model, then speech through the VoicePort (the ElevenLabs wire format is in
 * src/infra/providers/voice/elevenlabs-voice.adapter.ts).
 *
 * Integration config (account integration `voicePodcast`):
 *   { apiKey: string (required), baseUrl?: string (default https://api.elevenlabs.io),
 *     voiceId?: string (narrator / host), secondVoiceId?: string (analyst) }
 *
 * Briefing: one voice (options.voiceId, else config.voiceId, else DEFAULT_NARRATOR_VOICE_ID) reads the briefing
 *   script with options.modelId (alias model_id), else DEFAULT_TTS_MODEL_ID.
 * Discussion: host lines use config.voiceId (else DEFAULT_HOST_VOICE_ID), analyst lines config.secondVoiceId (else
 *   DEFAULT_ANALYST_VOICE_ID), with options.modelId, else DEFAULT_DIALOGUE_MODEL_ID.
 * The language code (ISO 639-1) is sent only for a translated locale (fr de es it zh ja); `en` and `simple` omit it.
 *
 * Cost: VOICE_PRICE_CENTS_PER_CHARACTER per character sent (list price of about $0.30 per 1,000 characters),
 * rounded up to whole cents.
 *
 * Errors: those of the VoicePort, and audio labelled as anything but audio/mpeg (or a generic type) -> EngineFailure.
 */
import type { IntegrationCredentials, SpeechRequest, VoicePort } from '../../../infra/providers/ports';
import { ProviderFailure } from '../../../infra/providers/provider-errors';
import { DEFAULT_VOICE_BASE_URL, ElevenLabsVoiceAdapter, VOICE_PROVIDER_NAME, type VoiceAdapterOptions } from '../../../infra/providers/voice/elevenlabs-voice.adapter';
import { scanDateOf } from '../renderers/render-dates';
import type { ProviderExportAdapter, ProviderExportInput, ProviderExportResult } from './provider-export.types';
import { briefingScript, dialogueScript, scriptLanguage } from './script';
import { configBaseUrl, configString } from './integration-config';
import { resultMediaType } from './result-media-type';

export { VOICE_PROVIDER_NAME } from '../../../infra/providers/voice/elevenlabs-voice.adapter';
export const DEFAULT_TTS_MODEL_ID = 'eleven_multilingual_v2';
export const DEFAULT_DIALOGUE_MODEL_ID = 'eleven_v3';
/** ElevenLabs premade voices: "George" (narrator and host) and "Sarah" (analyst). */
export const DEFAULT_NARRATOR_VOICE_ID = 'JBFqnCBsd6RMkjVDRZzb';
export const DEFAULT_HOST_VOICE_ID = DEFAULT_NARRATOR_VOICE_ID;
export const DEFAULT_ANALYST_VOICE_ID = 'EXAVITQu4vr4xnAvG1Ky';
/** Cents per character of text sent (0.03 cents = $0.30 per 1,000 characters). */
export const VOICE_PRICE_CENTS_PER_CHARACTER = 0.03;

export type VoiceMode = 'briefing' | 'discussion';

const VOICE_EXPORT_TYPES: Readonly<Record<VoiceMode, { provider: string; artifactType: string }>> = {
  briefing: { provider: 'voice-briefing', artifactType: 'podcast-briefing' },
  discussion: { provider: 'voice-discussion', artifactType: 'podcast-discussion' },
};

/** Whole cents for `characters` characters of speech, rounded up. */
export function voiceCostCents(characters: number): number {
  // Rounded to a millionth first so binary floating point never tips an exact amount up a cent.
  return Math.max(0, Math.ceil(Math.round(characters * VOICE_PRICE_CENTS_PER_CHARACTER * 1e6) / 1e6));
}

interface VoiceConfig extends IntegrationCredentials {
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

/** What is spoken, by which voices, and how many characters that is. */
function speechFor(mode: VoiceMode, input: ProviderExportInput, config: VoiceConfig): { request: SpeechRequest; characters: number } {
  const language = scriptLanguage(input.locale);
  const languageCode = language !== 'en' ? language : undefined;
  const modelOverride = option(input.options, 'modelId', 'model_id');
  if (mode === 'briefing') {
    const text = briefingScript(input.snapshot, input.locale);
    const voiceId = option(input.options, 'voiceId') ?? config.voiceId ?? DEFAULT_NARRATOR_VOICE_ID;
    return { request: { kind: 'monologue', text, voiceId, modelId: modelOverride ?? DEFAULT_TTS_MODEL_ID, languageCode }, characters: text.length };
  }
  const host = config.voiceId ?? DEFAULT_HOST_VOICE_ID;
  const analyst = config.secondVoiceId ?? (host === DEFAULT_ANALYST_VOICE_ID ? DEFAULT_HOST_VOICE_ID : DEFAULT_ANALYST_VOICE_ID);
  const lines = dialogueScript(input.snapshot, input.locale).map((line) => ({ text: line.text, voiceId: line.speaker === 'host' ? host : analyst }));
  return {
    request: { kind: 'dialogue', lines, modelId: modelOverride ?? DEFAULT_DIALOGUE_MODEL_ID, languageCode },
    characters: lines.reduce((sum, line) => sum + line.text.length, 0),
  };
}

/** A voice export over `voice` (by default the ElevenLabs adapter with `adapterOptions`). */
export function createVoiceAdapter(mode: VoiceMode, adapterOptions: VoiceAdapterOptions = {}, voice?: VoicePort): ProviderExportAdapter {
  const port = voice ?? new ElevenLabsVoiceAdapter(adapterOptions);
  return {
    async run(input: ProviderExportInput, integrationConfig: Record<string, unknown>, signal?: AbortSignal): Promise<ProviderExportResult> {
      const config = parseVoiceConfig(integrationConfig);
      const { request, characters } = speechFor(mode, input, config);
      const audio = await port.speak(request, config, signal);
      const type = resultMediaType(VOICE_PROVIDER_NAME, VOICE_EXPORT_TYPES[mode], [audio.contentType]);
      return {
        bytes: audio.bytes,
        mime: type.mime,
        filename: `regulatory-${mode}-${scanDateOf(input.snapshot)}.${type.extension}`,
        costCents: voiceCostCents(characters),
      };
    },
  };
}
