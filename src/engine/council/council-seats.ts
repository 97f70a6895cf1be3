/**
 * Who sits on the council (docs/decisions.md, "Council with real seats"): the `large` analysts of the first two
 * configured LLM vendors in TIER_PROVIDER_PREFERENCE order that have an analysis adapter; with one such vendor,
 * that vendor sits twice (two independent runs of the same model). The writer is seat A's vendor's `writer` model,
 * else its `medium` analyst, else its `large` one. No configured vendor: the offline council.
 */
import { type Env, findProvider, type ProviderKey, resolveModel, TIER_PROVIDER_PREFERENCE } from '../../domain/vocabulary/models';
import type { LlmPort } from '../../infra/providers/ports';
import type { LlmRole } from '../llm/llm-session';

export interface CouncilRole extends LlmRole {
  provider: ProviderKey;
}

export interface CouncilSeating {
  seats: [CouncilRole, CouncilRole];
  /** Each seat's sub-editor: its vendor's writer, as in a standard scan. */
  seatWriters: [CouncilRole, CouncilRole];
  /** The composite's writer: seat A's. */
  writer: CouncilRole;
}

function roleOf(modelId: string, env: Env, llmOf: (provider: string) => LlmPort | null): CouncilRole | null {
  const resolved = resolveModel(modelId, env);
  if (!resolved?.configured || resolved.provider === 'offline') return null;
  const port = llmOf(resolved.provider);
  return port ? { provider: resolved.provider, port, modelId: resolved.model.id, vendorModel: resolved.model.model_id } : null;
}

export function councilSeating(env: Env, llmOf: (provider: string) => LlmPort | null): CouncilSeating | null {
  const analysts: CouncilRole[] = [];
  for (const provider of TIER_PROVIDER_PREFERENCE) {
    if (analysts.length === 2) break;
    const large = findProvider(provider, env)?.models.find((m) => m.role === 'analyst' && m.tier === 'large');
    const role = large ? roleOf(large.id, env, llmOf) : null;
    if (role) analysts.push(role);
  }
  if (analysts.length === 0) return null;
  const [seatA, seatB = seatA] = analysts;
  const seatWriters: [CouncilRole, CouncilRole] = [writerFor(seatA, env, llmOf), writerFor(seatB, env, llmOf)];
  return { seats: [seatA, seatB], seatWriters, writer: seatWriters[0] };
}

/**
 * The writer for an analyst (council composites, standard LLM scans' sub-edit and simple register): its vendor's
 * `writer` model, else its `medium` analyst, else the analyst itself.
 */
export function writerFor(analyst: CouncilRole, env: Env, llmOf: (provider: string) => LlmPort | null): CouncilRole {
  const models = findProvider(analyst.provider, env)?.models ?? [];
  const writerModel = models.find((m) => m.role === 'writer') ?? models.find((m) => m.role === 'analyst' && m.tier === 'medium');
  return (writerModel && roleOf(writerModel.id, env, llmOf)) ?? analyst;
}
