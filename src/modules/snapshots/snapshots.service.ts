import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApiError, notFound, validationFailed, type FieldError } from '../../common/errors/api-error';
import { CalendarService } from '../../engine/calendar/calendar.service';
import { selectEntriesWithStats } from '../../engine/analysis/selection';
import { driftOverlay, type DriftOverlay, type RemovalContext } from './drift';
import { DEFAULT_LIST_LIMIT, type ListSnapshotsQueryDto } from './dto/list-snapshots-query.dto';
import type { SnapshotListDto } from './dto/snapshot-list.dto';
import type { SnapshotListItemDto } from './dto/snapshot-list-item.dto';
import type { Snapshot } from './entities/snapshot.entity';
import { isObject, narrativeIn, projectLanguage, type SnapshotLanguage } from './language-projection';
import { storedProjection } from './snapshot-projection';
import { SnapshotsRepository, type SnapshotListRow } from './snapshots.repository';
import { isUuid } from '../../common/validation/uuid';

export interface SnapshotView {
  id: string;
  title: string;
  config: Record<string, unknown>;
  data: Record<string, unknown>;
  cost_cents: number | null;
  created_at: string;
}

export type BriefingView = { available: false } | ({ available: true } & Record<string, unknown>);

@Injectable()
export class SnapshotsService {
  constructor(
    private readonly repository: SnapshotsRepository,
    private readonly calendars: CalendarService,
  ) {}

  /** Writes a snapshot inside the caller's transaction (the scan's completion). */
  insert(manager: EntityManager, snapshot: Snapshot): Promise<unknown> {
    return this.repository.insert(manager, snapshot);
  }

  findOwned(accountId: string, id: string): Promise<Snapshot | null> {
    return this.repository.findOwned(accountId, id);
  }

  /**
   * GET /v1/snapshots/{id} shape; the same projection serves a `complete` event replayed from storage.
   * `language` projects a complete translation (or the simple register) first; the stored projection then strips
   * markers and private keys from everything, projected prose included.
   */
  view(snapshot: Snapshot, language: SnapshotLanguage = 'en'): SnapshotView {
    return {
      id: snapshot.id,
      title: snapshot.title,
      config: snapshot.config as unknown as Record<string, unknown>,
      data: storedProjection(projectLanguage(snapshot.data, language).envelope),
      cost_cents: snapshotCost(snapshot),
      created_at: snapshot.createdAt.toISOString(),
    };
  }

  /** GET /v1/snapshots: the account's snapshots, newest first. */
  async list(accountId: string, query: ListSnapshotsQueryDto): Promise<SnapshotListDto> {
    const from = query.from === undefined ? undefined : instant(query.from, 'from');
    const to = query.to === undefined ? undefined : instant(query.to, 'to');
    if (from && to && from.getTime() > to.getTime()) {
      throw validationFailed([{ path: 'from', code: 'invalid_range', message: '`from` must not be after `to`' }]);
    }
    const limit = query.limit ?? DEFAULT_LIST_LIMIT;
    const offset = query.offset ?? 0;
    const { rows, total } = await this.repository.list(accountId, {
      from,
      to,
      jurisdiction: query.jurisdiction?.toLowerCase(),
      area: query.area?.toLowerCase(),
      limit,
      offset,
    });
    return { data: rows.map(listItem), pagination: { limit, offset, total } };
  }

  /** GET /v1/snapshots/{id}. */
  async read(accountId: string, id: string, language: SnapshotLanguage = 'en'): Promise<SnapshotView> {
    return this.view(await this.owned(accountId, id), language);
  }

  /** GET /v1/snapshots/{id}/items: null when the envelope has no `items` array. */
  async items(accountId: string, id: string): Promise<{ data: unknown[] | null }> {
    return { data: arrayOrNull(await this.section(accountId, id, 'items')) };
  }

  /** GET /v1/snapshots/{id}/trends: null when the envelope has no `trends` array. */
  async trends(accountId: string, id: string): Promise<{ data: unknown[] | null }> {
    return { data: arrayOrNull(await this.section(accountId, id, 'trends')) };
  }

  /** GET /v1/snapshots/{id}/executive-summary: null when the envelope has no `executive_summary` object. */
  async executiveSummary(accountId: string, id: string): Promise<{ data: Record<string, unknown> | null }> {
    const summary = await this.section(accountId, id, 'executive_summary');
    return { data: isObject(summary) ? summary : null };
  }

  /** GET /v1/snapshots/{id}/executive-narrative. */
  async executiveNarrative(accountId: string, id: string, language = 'en'): Promise<{ executive_narrative: string; language: string }> {
    const snapshot = await this.owned(accountId, id);
    const found = narrativeIn(snapshot.data, language);
    if ('missing' in found) {
      if (found.missing === 'narrative') throw notFound(`Snapshot ${id} has no executive narrative`);
      throw new ApiError('translation_not_available', `Snapshot ${id} has no ${language} translation of its executive narrative`);
    }
    const projected = storedProjection({ executive_narrative: found.narrative });
    return { executive_narrative: projected.executive_narrative as string, language: found.language };
  }

  /** GET /v1/snapshots/{id}/drift: the overlay against the prior comparable snapshot (see the repository's rule). */
  async drift(accountId: string, id: string): Promise<DriftOverlay> {
    const snapshot = await this.owned(accountId, id);
    const baseline = await this.repository.findBaseline(snapshot);
    if (!baseline) return { available: false };
    return driftOverlay(readableItems(snapshot), { snapshot: baseline, items: readableItems(baseline) }, this.removalContext(snapshot));
  }

  /** Today's calendar, and what the snapshot's scope and scan date match in it before the item cap. */
  private removalContext(snapshot: Snapshot): RemovalContext {
    const calendar = this.calendars.get();
    const meta = isObject(snapshot.data._meta) ? snapshot.data._meta : {};
    const scanDate = typeof meta.scan_date === 'string' ? meta.scan_date : snapshot.createdAt.toISOString().slice(0, 10);
    const { jurisdictions, areas, horizon } = snapshot.config;
    const matched = selectEntriesWithStats(calendar, { jurisdictions, areas, horizonMonths: horizon, scanDate, maxItems: Number.MAX_SAFE_INTEGER });
    return {
      calendarIds: new Set(calendar.entries.map((entry) => entry.id)),
      matchedIds: new Set(matched.selected.map(({ entry }) => entry.id)),
    };
  }

  /** GET /v1/snapshots/{id}/briefing: the sub-editor block, or `{available: false}` when the snapshot has none. */
  async briefing(accountId: string, id: string): Promise<BriefingView> {
    const briefing = await this.section(accountId, id, '_briefing');
    if (!isObject(briefing)) return { available: false };
    const { available: _ignored, ...fields } = briefing;
    return { available: true, ...fields };
  }

  private async owned(accountId: string, id: string): Promise<Snapshot> {
    // A malformed id is simply not found (and never reaches the uuid column).
    const snapshot = isUuid(id) ? await this.repository.findOwned(accountId, id) : null;
    if (!snapshot) throw notFound(`Snapshot ${id} not found`);
    return snapshot;
  }

  /** One top-level key of the envelope as reads show it (markers stripped; private keys are never asked for). */
  private async section(accountId: string, id: string, key: 'items' | 'trends' | 'executive_summary' | '_briefing'): Promise<unknown> {
    const snapshot = await this.owned(accountId, id);
    if (!Object.prototype.hasOwnProperty.call(snapshot.data, key)) return undefined;
    return storedProjection({ [key]: snapshot.data[key] })[key];
  }
}

/** Reconciled actual when available (may be fractional), else the original whole-cent estimate. */
export function snapshotCost(snapshot: Pick<Snapshot, 'costCents' | 'estimateCents'>): number | null {
  if (snapshot.costCents !== null) return Number(snapshot.costCents);
  return snapshot.estimateCents;
}

function listItem(row: SnapshotListRow): SnapshotListItemDto {
  return {
    id: row.id,
    title: row.title,
    scan_id: row.scan_id,
    engine: row.engine,
    horizon: Number(row.horizon),
    jurisdictions: row.jurisdictions,
    areas: row.areas,
    item_count: row.item_count,
    cost_cents: snapshotCost({ costCents: row.cost_cents, estimateCents: row.estimate_cents }),
    created_at: new Date(row.created_at).toISOString(),
    kind: row.kind,
  };
}

/** A validated ISO 8601 string as an instant; forms JavaScript cannot place in time (week dates) are invalid. */
function instant(value: string, path: 'from' | 'to'): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    const error: FieldError = { path, code: 'invalid', message: `${path} must be an ISO 8601 date-time` };
    throw validationFailed([error]);
  }
  return date;
}

function arrayOrNull(value: unknown): unknown[] | null {
  return Array.isArray(value) ? value : null;
}

/** A snapshot's items as reads show them (markers stripped), for drift. */
function readableItems(snapshot: Snapshot): unknown[] {
  const items = snapshot.data.items;
  return Array.isArray(items) ? (storedProjection({ items }).items as unknown[]) : [];
}
