/**
 * What a worker renders at start (WARM_RENDERERS): the PDF report of every calendar instrument due in the next three
 * years, so the word shapes real reports use are in pdfkit's shared layout cache before the first job (it is shared
 * by the briefing, tearsheet and calendar too); the other types render the renderers' small built-in snapshot.
 * Measured in docs/performance.md: the first PDF of a worker drops from about 490 ms to about 200 ms.
 */
import { analyseOffline, publicEnvelope } from '../../engine/analysis/compose';
import type { Calendar } from '../../engine/calendar/calendar.types';
import { AREAS } from '../../domain/vocabulary/areas';
import { JURISDICTIONS } from '../../domain/vocabulary/jurisdictions';
import { RENDERED_ARTIFACT_TYPES, renderArtefact, type RenderSnapshot, warmUpRenderers } from './renderers';

const WARM_UP_HORIZON_MONTHS = 36;

/** Every instrument of the calendar due within three years of `scanDate`, as one snapshot. */
export function calendarWarmUpSnapshot(calendar: Calendar, scanDate: string): RenderSnapshot {
  const jurisdictions = JURISDICTIONS.map((jurisdiction) => jurisdiction.id);
  const areas = AREAS.map((area) => area.id);
  const analysis = analyseOffline(calendar, {
    jurisdictions,
    areas,
    horizonMonths: WARM_UP_HORIZON_MONTHS,
    scanDate,
    engine: 'offline',
    realist: true,
    auditor: true,
    maxItems: calendar.entries.length,
  });
  return {
    id: 'warm-up',
    title: 'Renderer warm-up',
    created_at: `${scanDate}T00:00:00.000Z`,
    config: { jurisdictions, areas, horizon: WARM_UP_HORIZON_MONTHS, engine: 'offline' },
    data: publicEnvelope(analysis),
  };
}

/** Renders the warm-up set; yields to the event loop between types so a combined API process keeps answering. */
export async function warmUpWorkerRenderers(calendar: Calendar, scanDate: string): Promise<void> {
  await renderArtefact('pdf', { snapshot: calendarWarmUpSnapshot(calendar, scanDate), options: {}, locale: 'en' });
  for (const type of RENDERED_ARTIFACT_TYPES.filter((each) => each !== 'pdf')) {
    await new Promise((resolve) => setImmediate(resolve));
    await warmUpRenderers([type]);
  }
}
