import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApiError, notFound, validationFailed, type FieldError } from '../../common/errors/api-error';
import { CalendarService } from '../../engine/calendar/calendar.service';
import type { Calendar } from '../../engine/calendar/calendar.types';
import { namesTag, parseIfNoneMatch, strongEtag, type Representation } from './conditional-response';
import { SnapshotRepresentationsRepository } from './snapshot-representations.repository';
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

/** The reads of one snapshot: the snapshot itself and its sub-resources (the path segment after the id). */
export type SnapshotResource = 'snapshot' | 'items' | 'trends' | 'executive-summary' | 'executive-narrative' | 'briefing' | 'drift';

interface RepresentationForm {
  /** The second half of the key: the language, the calendar, or '' for a resource with one form. */
  variant(language: string | undefined): string;
  derive(snapshot: Snapshot, language: string | undefined): unknown;
  storable?(snapshot: Snapshot): boolean;
}

/** Variants a representation is stored under (languages, `calendar:<digest>`, ''). */
const STORED_VARIANT = /^[A-Za-z0-9_:.-]{0,64}$/;

/** Time after which no scan that started before a snapshot's can still commit a snapshot dated before it. */
export const DRIFT_SETTLED_AFTER_MS = 5 * 60_000;

export type BriefingView = { available: false } | ({ available: true } & Record<string, unknown>);

@Injectable()
export class SnapshotsService {
  private readonly logger = new Logger(SnapshotsService.name);
  private digested?: { calendar: Calendar; digest: string };

  constructor(
    private readonly repository: SnapshotsRepository,
    private readonly representations: SnapshotRepresentationsRepository,
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

  /**
   * A read of one snapshot (`snapshot`) or of a sub-resource, as stored bytes: looked up by primary key with the
   * tag compared in the same query; on the first read (or after a projection-version bump) derived from the
   * snapshot row and stored. Misses (404s) are never stored, so they always check the snapshot itself.
   */
  async represent(accountId: string, id: string, resource: SnapshotResource, ifNoneMatchHeader?: string, language?: string): Promise<Representation> {
    // A malformed id is simply not found (and never reaches the uuid columns).
    if (!isUuid(id)) throw notFound(`Snapshot ${id} not found`);
    const form = this.forms[resource];
    const key = { accountId, snapshotId: id, resource, variant: form.variant(language) };
    const ifNoneMatch = parseIfNoneMatch(ifNoneMatchHeader);
    // A narrative language is whatever the client sent: only plain codes are looked up and kept.
    const keyed = STORED_VARIANT.test(key.variant);
    const stored = keyed ? await this.representations.find(key, ifNoneMatch) : undefined;
    if (stored) return { etag: stored.etag, json: stored.body };
    const snapshot = await this.owned(accountId, id);
    const json = JSON.stringify(await form.derive(snapshot, language));
    const etag = strongEtag(json);
    if (keyed && (form.storable?.(snapshot) ?? true)) {
      // Storing is an optimisation: when it fails the read still answers, and the next one derives again.
      await this.representations.store(key, etag, json).catch((error: Error) => this.logger.warn(`storing ${resource} of ${id}: ${error.message}`));
    }
    return { etag, json: namesTag(ifNoneMatch, etag) ? null : json };
  }

  /** How each resource is keyed and derived. */
  private readonly forms: Record<SnapshotResource, RepresentationForm> = {
    snapshot: { variant: (language) => language ?? 'en', derive: (snapshot, language) => this.view(snapshot, language as SnapshotLanguage) },
    items: { variant: () => '', derive: (snapshot) => ({ data: arrayOrNull(section(snapshot, 'items')) }) },
    trends: { variant: () => '', derive: (snapshot) => ({ data: arrayOrNull(section(snapshot, 'trends')) }) },
    'executive-summary': {
      variant: () => '',
      derive: (snapshot) => {
        const summary = section(snapshot, 'executive_summary');
        return { data: isObject(summary) ? summary : null };
      },
    },
    'executive-narrative': { variant: (language) => narrativeLanguage(language), derive: (snapshot, language) => executiveNarrative(snapshot, language) },
    briefing: { variant: () => '', derive: (snapshot) => briefingOf(snapshot) },
    // Drift reads today's calendar (removal reasons) and the snapshots before this one: keyed by the calendar's
    // digest, and stored only once no scan that started earlier can still commit an earlier snapshot.
    drift: {
      variant: () => `calendar:${this.calendarDigest()}`,
      derive: (snapshot) => this.driftOf(snapshot),
      storable: (snapshot) => Date.now() - snapshot.createdAt.getTime() > DRIFT_SETTLED_AFTER_MS,
    },
  };

  /** GET /v1/snapshots/{id}/drift as an object (exports render it). */
  async drift(accountId: string, id: string): Promise<DriftOverlay> {
    return this.driftOf(await this.owned(accountId, id));
  }

  /** The drift overlay against the prior comparable snapshot (see the repository's rule). */
  private async driftOf(snapshot: Snapshot): Promise<DriftOverlay> {
    const baseline = await this.repository.findBaseline(snapshot);
    if (!baseline) return { available: false };
    return driftOverlay(readableItems(snapshot), { snapshot: baseline, items: readableItems(baseline) }, this.removalContext(snapshot));
  }

  /** A digest of the calendar this process serves (loaded once per process). */
  private calendarDigest(): string {
    const calendar = this.calendars.get();
    if (this.digested?.calendar !== calendar) {
      this.digested = { calendar, digest: createHash('sha256').update(JSON.stringify(calendar.entries)).digest('base64url').slice(0, 22) };
    }
    return this.digested.digest;
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

  private async owned(accountId: string, id: string): Promise<Snapshot> {
    // A malformed id is simply not found (and never reaches the uuid column).
    const snapshot = isUuid(id) ? await this.repository.findOwned(accountId, id) : null;
    if (!snapshot) throw notFound(`Snapshot ${id} not found`);
    return snapshot;
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

/** One top-level key of the envelope as reads show it (markers stripped; private keys are never asked for). */
function section(snapshot: Snapshot, key: 'items' | 'trends' | 'executive_summary' | '_briefing'): unknown {
  if (!Object.prototype.hasOwnProperty.call(snapshot.data, key)) return undefined;
  return storedProjection({ [key]: snapshot.data[key] })[key];
}

/** The sub-editor block, or `{available: false}` when the snapshot has none. */
function briefingOf(snapshot: Snapshot): BriefingView {
  const briefing = section(snapshot, '_briefing');
  if (!isObject(briefing)) return { available: false };
  const { available: _ignored, ...fields } = briefing;
  return { available: true, ...fields };
}

/** The narrative language as served: `language` is open and case-insensitive, `en` when absent or blank. */
function narrativeLanguage(language = 'en'): string {
  return language.trim().toLowerCase() || 'en';
}

function executiveNarrative(snapshot: Snapshot, language = 'en'): { executive_narrative: string; language: string } {
  const found = narrativeIn(snapshot.data, language);
  if ('missing' in found) {
    if (found.missing === 'narrative') throw notFound(`Snapshot ${snapshot.id} has no executive narrative`);
    throw new ApiError('translation_not_available', `Snapshot ${snapshot.id} has no ${language} translation of its executive narrative`);
  }
  const projected = storedProjection({ executive_narrative: found.narrative });
  return { executive_narrative: projected.executive_narrative as string, language: found.language };
}

function arrayOrNull(value: unknown): unknown[] | null {
  return Array.isArray(value) ? value : null;
}

/** A snapshot's items as reads show them (markers stripped), for drift. */
function readableItems(snapshot: Snapshot): unknown[] {
  const items = snapshot.data.items;
  return Array.isArray(items) ? (storedProjection({ items }).items as unknown[]) : [];
}
