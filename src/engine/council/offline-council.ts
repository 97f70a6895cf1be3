/**
 * The offline council (no LLM vendor configured): both "seats" are the regulatory calendar ranked two ways (impact
 * first, date first), interleaved, and the briefing is composed by rule. It is labelled as such: `_meta.engine_mode`
 * and `_meta.council.mode` are `offline`, and its progress says no model analysed anything.
 */
import type { EngineOutput, EngineRunContext, EngineSnapshot } from '../engine.types';
import type { SelectedEntry } from '../analysis/selection';

export type CouncilLens = 'impact' | 'timeline';

export interface OfflineCouncilInput {
  ctx: EngineRunContext;
  selected: SelectedEntry[];
  step: (phase: string, percent: number, message: string) => Promise<void>;
  translate: (envelope: Record<string, unknown>) => Promise<string>;
  cost: () => number;
  /** The offline envelope of `selected` written under `lens`. */
  compose: (selected: SelectedEntry[], lens: CouncilLens) => Record<string, unknown>;
  title: (suffix: string) => string;
}

export async function runOfflineCouncil(input: OfflineCouncilInput): Promise<EngineOutput> {
  const { selected, step, compose, title } = input;
  await step('search', 15, `Offline council: the regulatory calendar holds ${selected.length} instrument(s) within the horizon`);
  const seats = (['impact', 'timeline'] as CouncilLens[]).map((lens) => ({ lens, envelope: compose(ordered(selected, lens), lens) }));
  await step('analyse', 50, 'Offline council: ranked the calendar by impact (seat A) and by date (seat B); no model analysed it');
  const merged = interleave(ordered(selected, 'impact'), ordered(selected, 'timeline'));
  await step('merge', 65, `Offline council: interleaved the two rankings into ${merged.length} item(s)`);
  const composite = compose(merged, 'impact');
  composite._meta = {
    ...(composite._meta as object),
    engine_mode: 'offline',
    council: { mode: 'offline', seats: ['impact', 'timeline'], merge: 'interleaved-by-rank' },
  };
  await step('write', 80, 'Offline council: composed the briefing by rule from the calendar');
  await step('translate', 90, await input.translate(composite));
  await step('finalise', 97, 'Finalised the composite and seat snapshots');
  const seatSnapshots: EngineSnapshot[] = seats.map(({ lens, envelope }) => ({
    kind: 'council_seat',
    seat: lens,
    title: title(` — seat ${lens === 'impact' ? 'A (impact)' : 'B (timeline)'}`),
    envelope: { ...envelope, _meta: { ...(envelope._meta as object), council_seat: lens } },
  }));
  return {
    snapshots: [{ kind: 'council_composite', title: title(' — council'), envelope: composite }, ...seatSnapshots],
    costCents: input.cost(),
  };
}

function ordered(selected: SelectedEntry[], lens: CouncilLens): SelectedEntry[] {
  if (lens === 'impact') return selected;
  return [...selected].sort((a, b) => a.nextKeyDate.date.localeCompare(b.nextKeyDate.date) || a.entry.id.localeCompare(b.entry.id));
}

/** Alternates the seats' rankings, keeping each item once: deterministic for the same inputs. */
function interleave(a: SelectedEntry[], b: SelectedEntry[]): SelectedEntry[] {
  const seen = new Set<string>();
  const merged: SelectedEntry[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    for (const candidate of [a[i], b[i]]) {
      if (candidate && !seen.has(candidate.entry.id)) {
        seen.add(candidate.entry.id);
        merged.push(candidate);
      }
    }
  }
  return merged;
}
