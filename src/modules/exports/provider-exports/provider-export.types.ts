/**
 * Provider-backed export types (notebook, voice-briefing, voice-discussion): the adapter contract the export
 * worker calls, and the error that marks an export `undelivered` (../shared/spec/decisions.md C6).
 *
 * Errors an adapter throws:
 * - `EngineFailure` (in practice `ProviderFailure` from src/engine/providers/http.ts): permanent; the export fails
 *   with the message (API keys are never part of a message).
 * - `ProviderTransientError` (`ProviderTransientError`): rate limits, 5xx, timeouts; worth retrying.
 * - `ResultUndeliverableError`: the provider produced the artefact (and charged for it) but its bytes could not be
 *   retrieved; the export becomes `undelivered`, charged `costCents`.
 * - The caller's own abort reason, unchanged, when `signal` aborts.
 */
import type { RenderInput } from '../renderers/types';

export interface ProviderExportResult {
  bytes: Buffer;
  mime: string;
  /** Safe ASCII, e.g. regulatory-briefing-2026-11-22.mp3 */
  filename: string;
  /** What the provider run cost (whole cents, rounded up). */
  costCents: number;
}

/**
 * What an adapter receives: the renderer input, optionally with the export's artifact type. The notebook adapter
 * needs to know it; when absent it is taken from `options.artifact_type`, else inferred from the type-specific
 * options (defaults are filled by the validator: `style` -> infographic, `slide_length` -> slide-detailed,
 * `audio_format` -> audio, `video_format` -> video, none of these -> video-explainer). Prefer passing it, or use
 * `ProviderExportRegistry.adapter(provider, artifactType)` (provider-export.registry.ts), which binds it.
 */
export type ProviderExportInput = RenderInput & { artifactType?: string };

export interface ProviderExportAdapter {
  run(input: ProviderExportInput, integrationConfig: Record<string, unknown>, signal?: AbortSignal): Promise<ProviderExportResult>;
}

/** The provider finished the artefact but its bytes could not be fetched into storage (export state `undelivered`). */
export class ResultUndeliverableError extends Error {
  constructor(
    message: string,
    readonly provider: string,
    /** The run's cost, incurred anyway. */
    readonly costCents: number,
    /** Provider-side id of the finished job, for the operator. */
    readonly jobId: string | null = null,
  ) {
    super(message);
    this.name = 'ResultUndeliverableError';
  }
}
