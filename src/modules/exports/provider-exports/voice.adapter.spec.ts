import { input, realisticSnapshot } from '../../../../test/fixtures/snapshots';
import { FAKE_VOICE_API_KEY, FakeVoiceServer, startFakeVoiceServer } from '../../../../test/fakes/fake-media-servers';
import { providerExportAdapter } from './provider-export.registry';
import { createVoiceAdapter, DEFAULT_ANALYST_VOICE_ID, DEFAULT_DIALOGUE_MODEL_ID, DEFAULT_NARRATOR_VOICE_ID, DEFAULT_TTS_MODEL_ID, voiceCostCents } from './voice.adapter';
import { EngineFailure } from '../../../domain/failures';
import { ProviderTransientError } from '../../../infra/providers/provider-errors';

describe('voice adapter', () => {
  let fake: FakeVoiceServer;
  const config = (): Record<string, unknown> => ({ apiKey: FAKE_VOICE_API_KEY, baseUrl: fake.baseUrl });
  beforeEach(async () => {
    fake = await startFakeVoiceServer();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('speaks a briefing through text-to-speech with the default voice and model', async () => {
    const result = await providerExportAdapter('voice-briefing')!.run(input(realisticSnapshot()), config());
    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe(`/v1/text-to-speech/${DEFAULT_NARRATOR_VOICE_ID}?output_format=mp3_44100_128`);
    expect(request.headers['xi-api-key']).toBe(FAKE_VOICE_API_KEY);
    expect(request.headers['content-type']).toMatch(/^application\/json/);
    const body = request.body as { text: string; model_id: string; language_code?: string };
    expect(body.model_id).toBe(DEFAULT_TTS_MODEL_ID);
    expect(body.language_code).toBeUndefined();
    expect(body.text.length).toBeGreaterThan(200);
    expect(body.text.length).toBeLessThanOrEqual(4500);
    expect(result.mime).toBe('audio/mpeg');
    expect(result.filename).toBe('regulatory-briefing-2026-11-22.mp3');
    expect(result.bytes.equals(fake.audio)).toBe(true);
    expect(result.costCents).toBe(Math.ceil(body.text.length * 0.03));
  });

  it('lets options.voiceId beat the config voice, and modelId / model_id override the model', async () => {
    const adapter = createVoiceAdapter('briefing');
    await adapter.run(input(realisticSnapshot(), { voiceId: 'optVoice', modelId: 'eleven_flash_v2_5' }), {
      ...config(),
      voiceId: 'cfgVoice',
    });
    await adapter.run(input(realisticSnapshot(), { model_id: 'eleven_turbo_v2_5' }), { ...config(), voiceId: 'cfgVoice' });
    expect(fake.requests[0]!.path).toMatch(/^\/v1\/text-to-speech\/optVoice\?/);
    expect((fake.requests[0]!.body as { model_id: string }).model_id).toBe('eleven_flash_v2_5');
    expect(fake.requests[1]!.path).toMatch(/^\/v1\/text-to-speech\/cfgVoice\?/);
    expect((fake.requests[1]!.body as { model_id: string }).model_id).toBe('eleven_turbo_v2_5');
  });

  it('sends language_code for a translated locale but not for simple', async () => {
    const adapter = createVoiceAdapter('briefing');
    await adapter.run(input(realisticSnapshot(), {}, 'fr'), config());
    await adapter.run(input(realisticSnapshot(), {}, 'simple'), config());
    const fr = fake.requests[0]!.body as { text: string; language_code?: string };
    expect(fr.language_code).toBe('fr');
    expect(fr.text).toMatch(/^Voici votre point réglementaire du 22 novembre 2026\./);
    expect((fake.requests[1]!.body as { language_code?: string }).language_code).toBeUndefined();
  });

  it('speaks a discussion through text-to-dialogue with two alternating voices', async () => {
    const result = await providerExportAdapter('voice-discussion')!.run(input(realisticSnapshot()), { ...config(), voiceId: 'hostV' });
    const request = fake.requests[0]!;
    expect(request.path).toBe('/v1/text-to-dialogue?output_format=mp3_44100_128');
    expect(request.headers['xi-api-key']).toBe(FAKE_VOICE_API_KEY);
    const body = request.body as { inputs: Array<{ text: string; voice_id: string }>; model_id: string };
    expect(body.model_id).toBe(DEFAULT_DIALOGUE_MODEL_ID);
    expect(body.inputs.length).toBeGreaterThanOrEqual(4);
    body.inputs.forEach((line, index) => expect(line.voice_id).toBe(index % 2 === 0 ? 'hostV' : DEFAULT_ANALYST_VOICE_ID));
    const characters = body.inputs.reduce((sum, line) => sum + line.text.length, 0);
    expect(characters).toBeLessThanOrEqual(4500);
    expect(result.costCents).toBe(voiceCostCents(characters));
    expect(result.filename).toBe('regulatory-discussion-2026-11-22.mp3');
  });

  it('uses secondVoiceId for the analyst and modelId for the dialogue model', async () => {
    await createVoiceAdapter('discussion').run(input(realisticSnapshot(), { modelId: 'eleven_v3_alpha' }), {
      ...config(),
      voiceId: 'a',
      secondVoiceId: 'b',
    });
    const body = fake.requests[0]!.body as { inputs: Array<{ voice_id: string }>; model_id: string };
    expect(body.model_id).toBe('eleven_v3_alpha');
    expect(new Set(body.inputs.map((line) => line.voice_id))).toEqual(new Set(['a', 'b']));
  });

  it('maps a rejected key to an EngineFailure that does not leak the key', async () => {
    const wrongKey = 'sk_wrong_key_9876543210';
    const error = await createVoiceAdapter('briefing')
      .run(input(realisticSnapshot()), { apiKey: wrongKey, baseUrl: fake.baseUrl })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineFailure);
    expect(error).not.toBeInstanceOf(ProviderTransientError);
    expect((error as Error).message).toContain('the voice integration rejected its API key');
    expect((error as Error).message).not.toContain(wrongKey);
  });

  it('maps 429, 5xx and timeouts to ProviderTransientError', async () => {
    const adapter = createVoiceAdapter('briefing', { timeoutMs: 300 });
    fake.failNext(429);
    await expect(adapter.run(input(realisticSnapshot()), config())).rejects.toBeInstanceOf(ProviderTransientError);
    fake.failNext(503);
    await expect(adapter.run(input(realisticSnapshot()), config())).rejects.toBeInstanceOf(ProviderTransientError);
    fake.failNext('timeout');
    await expect(adapter.run(input(realisticSnapshot()), config())).rejects.toBeInstanceOf(ProviderTransientError);
  });

  it('fails permanently on a validation error and on a config without apiKey', async () => {
    const adapter = createVoiceAdapter('briefing');
    fake.failNext(422);
    const error = await adapter.run(input(realisticSnapshot()), config()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineFailure);
    expect(error).not.toBeInstanceOf(ProviderTransientError);
    await expect(adapter.run(input(realisticSnapshot()), { baseUrl: fake.baseUrl })).rejects.toThrow(/no apiKey/);
  });

  it('rejects a 200 that is not audio', async () => {
    await fake.close();
    fake = await startFakeVoiceServer({ audio: Buffer.from('{"not":"audio"}') });
    await expect(createVoiceAdapter('briefing').run(input(realisticSnapshot()), config())).rejects.toThrow(/expected MP3 audio/);
  });

  it('refuses audio the provider labels as a type a podcast does not allow', async () => {
    fake.contentType = 'text/html';
    const error = await createVoiceAdapter('briefing')
      .run(input(realisticSnapshot()), config())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineFailure);
    expect(error).not.toBeInstanceOf(ProviderTransientError);
    expect((error as Error).message).toMatch(/text\/html/);
    expect((error as Error).message).toMatch(/audio\/mpeg/);
  });

  it('accepts MP3 audio labelled generically', async () => {
    fake.contentType = 'application/octet-stream';
    expect((await createVoiceAdapter('discussion').run(input(realisticSnapshot()), config())).mime).toBe('audio/mpeg');
  });

  it('computes cost at 0.03 cents per character, rounded up', () => {
    expect(voiceCostCents(0)).toBe(0);
    expect(voiceCostCents(100)).toBe(3);
    expect(voiceCostCents(101)).toBe(4);
    expect(voiceCostCents(4500)).toBe(135);
  });
});
