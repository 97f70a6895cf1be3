import type { LlmPort } from '../../infra/providers/ports';
import { councilSeating } from './council-seats';

const port = (provider: string) => ({ provider }) as unknown as LlmPort;
const env = (...vendors: string[]) => Object.fromEntries(vendors.map((v) => [`${v.toUpperCase()}_API_KEY`, 'key']));
const seated = (e: Record<string, string>, adapters = ['anthropic', 'openai', 'gemini', 'cohere', 'perplexity']) =>
  councilSeating(e, (provider) => (adapters.includes(provider) ? port(provider) : null));

describe('councilSeating', () => {
  it('seats the large analysts of the first two configured vendors in preference order, and seat A vendor writes', () => {
    const seating = seated(env('perplexity', 'openai', 'gemini'))!;
    expect(seating.seats.map((s) => [s.provider, s.modelId, s.vendorModel])).toEqual([
      ['openai', 'openai-large', 'gpt-5-2025-08-07'],
      ['gemini', 'gemini-large', 'gemini-2.5-pro'],
    ]);
    expect(seating.writer).toMatchObject({ provider: 'openai', modelId: 'openai-writer', vendorModel: 'gpt-5.1-2025-11-13' });
  });

  it('seats a single configured vendor twice', () => {
    const seating = seated(env('cohere'))!;
    expect(seating.seats.map((s) => s.modelId)).toEqual(['cohere-large', 'cohere-large']);
    expect(seating.writer.modelId).toBe('cohere-writer');
  });

  it('falls back to the medium, then the large analyst, for vendors without a writer model', () => {
    expect(seated(env('gemini'))!.writer.modelId).toBe('gemini-medium');
    expect(seated(env('perplexity'))!.writer.modelId).toBe('perplexity-large');
  });

  it('skips vendors without an adapter, and is null (the offline council) when none is left', () => {
    expect(seated(env('anthropic', 'openai'), ['openai'])!.seats.map((s) => s.provider)).toEqual(['openai', 'openai']);
    expect(seated(env('deepl'))).toBeNull();
    expect(seated({})).toBeNull();
  });
});
