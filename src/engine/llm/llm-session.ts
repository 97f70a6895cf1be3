import { costCents as priceOf, type Env, modelPrice, type ModelUsage } from '../../domain/vocabulary/models';
import type { LlmPort } from '../../infra/providers/ports';
import { extractJsonObject, type JsonObject } from './parse';
import { JSON_REMINDER } from './prompts';

export interface LlmRole {
  port: LlmPort;
  /** Our catalogue id, for prices. */
  modelId: string;
  /** The vendor's model id sent on the wire. */
  vendorModel: string;
}

/**
 * One LLM analysis run's running state: what it has cost so far, notes for `_meta.llm`, and the caller's abort
 * signal. Every phase spends through it.
 */
export class LlmSession {
  cost = 0;
  readonly notes: string[] = [];

  constructor(
    readonly signal?: AbortSignal,
    /** The deployment's catalogue settings: self-hosted models are priced by them. */
    private readonly catalogue: Env = {},
  ) {}

  charge(modelId: string | undefined, usage: ModelUsage): void {
    if (modelId && modelPrice(modelId, this.catalogue)) this.cost += priceOf(modelId, usage, this.catalogue);
    else this.notes.push(`no price for model ${modelId ?? '(unknown)'}; its usage was not costed`);
  }

  /** Asks `role` for one JSON object; with `retry`, a reply that holds none gets one reminder. */
  async completeJson(
    role: LlmRole,
    system: string,
    prompt: string,
    maxTokens: number,
    retry: boolean,
  ): Promise<{ value: JsonObject | null; attempts: number }> {
    const { signal } = this;
    signal?.throwIfAborted();
    const messages = [{ role: 'user' as const, content: prompt }];
    const first = await role.port.complete({ model: role.vendorModel, system, messages, maxTokens, json: true }, signal);
    this.charge(role.modelId, first.usage);
    const parsed = extractJsonObject(first.text);
    if (parsed || !retry) return { value: parsed, attempts: 1 };
    const second = await role.port.complete(
      {
        model: role.vendorModel,
        system,
        messages: [
          ...messages,
          { role: 'assistant', content: first.text.slice(0, 4000) || '(empty)' },
          { role: 'user', content: JSON_REMINDER },
        ],
        maxTokens,
        json: true,
      },
      signal,
    );
    this.charge(role.modelId, second.usage);
    return { value: extractJsonObject(second.text), attempts: 2 };
  }
}
