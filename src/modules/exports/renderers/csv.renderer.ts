/**
 * `csv` (internal-csv): one row per item (in report order: groupByJurisdiction), with a header row.
 *
 * Format: RFC 4180: comma separated, CRLF line ends, every field in double quotes with inner quotes doubled
 * (so commas, quotes and line breaks inside a field survive). UTF-8 with a byte order mark: Excel opens a CSV
 * without one in the system code page and garbles accents and CJK text; parsers that know UTF-8 skip the BOM
 * (csv-parse `bom: true`, Python `utf-8-sig`).
 *
 * Multi-valued fields are joined with "; " (a semicolon and a space): citation_ids, citation_urls (URLs hold no
 * spaces, so split on "; " is safe), citation_titles, citation_publishers, citation_published_at (one entry per
 * citation, in the same order; an unknown date is empty), verification_passes ("realist=unverified; auditor=verified")
 * and verification_notes ("realist: ...; auditor: ..."). Text that would start with =, +, -, @, tab or CR gets a
 * leading apostrophe so a spreadsheet shows it as text instead of running it as a formula (CSV injection).
 *
 * Columns added for issue 12 come last, so readers that go by position keep working: key_date_precision and
 * key_date_label ("expected H2 2026"), milestone, source_url (the item's first source), reference_numbers (the
 * de-duplicated numbers the PDF report uses), selection (`selected`, or `beyond_cap` for the rows option
 * `list: all_matched` adds), rank (1-based within its selection), and scan_note (the selection line, the
 * disclaimer, and the language notice when the file is not in the language asked for), the same on every row.
 * citation_kinds (issue 24) says, per citation, whether it is `official` or a `secondary` briefing.
 *
 * Issue 25: `key_date` holds the date only as precisely as it is known, never an invented day: "2027-07-10" for a
 * day, "2027-07" for a month, "2027-Q3", "2027-H2" or "2027" for a period (an estimate at least to the month);
 * `key_date_precision` says which. `areas` lists every area the instrument carries ("; "), its main area first, so
 * an instrument filed under one area still counts under the others. `milestones` lists the item's timeline, one
 * "date (confidence, status): event" per milestone, dates again only as precise as they are known.
 */
import type { SnapshotItem } from '../../../engine/envelope.types';
import { artefactFilename } from './artefact-filename';
import { groupByJurisdiction } from './item-grouping';
import { scanDateOf } from './render-dates';
import { isIsoDate, isoPeriod, shownPrecision } from '../../../engine/analysis/dates';
import { stripCites } from './render-text';
import { buildReferences, disclaimerLine, keyDateLabel, languageNotice, type References, selectionLine } from './render-facts';
import type { BeyondCapItem, RenderedArtefact, RenderInput, RenderSnapshot } from './types';

export const CSV_COLUMNS = [
  'snapshot_id',
  'scan_date',
  'item_id',
  'title',
  'jurisdiction',
  'area',
  'regulator',
  'instrument_type',
  'stage',
  'key_date',
  'date_confidence',
  'impact',
  'summary',
  'implications',
  'verification_status',
  'verification_passes',
  'verification_notes',
  'citation_count',
  'citation_ids',
  'citation_urls',
  'citation_titles',
  'citation_publishers',
  'citation_published_at',
  'key_date_precision',
  'key_date_label',
  'milestone',
  'source_url',
  'reference_numbers',
  'selection',
  'rank',
  'scan_note',
  'citation_kinds',
  'areas',
  'milestones',
] as const;

export type CsvColumn = (typeof CSV_COLUMNS)[number];

export const CSV_LIST_SEPARATOR = '; ';

const FORMULA_START = /^[=+\-@\t\r]/;

/** A field as RFC 4180 wants it: always quoted, quotes doubled; formula-looking text defused. */
export function csvField(value: string | number | null | undefined, defuse = true): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (defuse && typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

function flat(text: string | null | undefined): string {
  // Values keep their line breaks (quoted fields carry them); only stray CRs are normalised.
  return (text ?? '').replace(/\r\n?/g, '\n');
}

interface RowContext {
  references: References;
  note: string;
}

export function itemRow(snapshot: RenderSnapshot, item: SnapshotItem, context: RowContext, rank: number): Record<CsvColumn, string | number> {
  const citations = item.citations ?? [];
  const passes = item.verification?.passes ?? [];
  const join = (values: string[]): string => values.map((value) => value.replace(/\s*\n\s*/g, ' ')).join(CSV_LIST_SEPARATOR);
  return {
    snapshot_id: snapshot.id,
    scan_date: scanDateOf(snapshot),
    item_id: item.id,
    title: flat(item.title),
    jurisdiction: item.jurisdiction,
    area: item.area,
    regulator: flat(item.regulator),
    instrument_type: item.instrument_type,
    stage: item.stage,
    key_date: isIsoDate((item.key_date ?? '').slice(0, 10))
      ? isoPeriod(item.key_date.slice(0, 10), shownPrecision(item.date_confidence, item.key_date_precision))
      : (item.key_date ?? ''),
    date_confidence: item.date_confidence,
    impact: item.impact,
    summary: flat(stripCites(item.summary)),
    implications: flat(stripCites(item.implications)),
    verification_status: item.verification?.status ?? '',
    verification_passes: join(passes.map((pass) => `${pass.pass}=${pass.status}`)),
    verification_notes: join(passes.map((pass) => `${pass.pass}: ${pass.note}`)),
    citation_count: citations.length,
    citation_ids: join(citations.map((citation) => String(citation.id))),
    citation_urls: join(citations.map((citation) => citation.url ?? '')),
    citation_titles: join(citations.map((citation) => citation.title ?? '')),
    citation_publishers: join(citations.map((citation) => citation.publisher ?? '')),
    citation_published_at: join(citations.map((citation) => citation.published_at ?? '')),
    key_date_precision: item.key_date_precision ?? 'day',
    key_date_label: keyDateLabel(item),
    milestone: flat(item.milestone),
    source_url: citations[0]?.url ?? '',
    reference_numbers: join(context.references.itemNumbers(item).map(String)),
    selection: 'selected',
    rank,
    scan_note: context.note,
    citation_kinds: join(citations.map((citation) => citation.kind ?? '')),
    areas: join(item.areas?.length ? item.areas : [item.area]),
    milestones: join(
      (item.timeline ?? []).map(
        (m) => `${isoPeriod(m.date, shownPrecision(m.confidence, m.precision))} (${m.confidence}, ${m.status}): ${flat(m.event)}`,
      ),
    ),
  };
}

/** A row for a matching instrument the cap left out: what the snapshot recorded of it, the rest empty. */
function beyondCapRow(snapshot: RenderSnapshot, item: BeyondCapItem, context: RowContext, rank: number): Record<CsvColumn, string | number> {
  const { citation, ...fields } = item;
  const recorded = {
    ...fields,
    instrument_type: '',
    summary: '',
    implications: '',
    citations: citation ? [{ id: 0, ...citation }] : [],
    verification: { status: '', passes: [] },
  } as unknown as SnapshotItem;
  // The citation id is a placeholder (the cap left the item out before citations were numbered).
  return { ...itemRow(snapshot, recorded, context, rank), citation_ids: '', selection: 'beyond_cap' };
}

export function renderCsvText(input: RenderInput): string {
  const { snapshot } = input;
  const items = snapshot.data.items ?? [];
  const context: RowContext = {
    references: buildReferences(items),
    note: [selectionLine(snapshot), disclaimerLine(snapshot), languageNotice(input)].filter((part) => part).join(' '),
  };
  const rankOf = new Map(items.map((item, index) => [item, index + 1]));
  const lines = [CSV_COLUMNS.map((column) => csvField(column, false)).join(',')];
  const push = (row: Record<CsvColumn, string | number>) => lines.push(CSV_COLUMNS.map((column) => csvField(row[column])).join(','));
  for (const section of groupByJurisdiction(snapshot)) {
    for (const item of section.items) push(itemRow(snapshot, item, context, rankOf.get(item) ?? 0));
  }
  (input.beyondCap ?? []).forEach((item, index) => push(beyondCapRow(snapshot, item, context, items.length + index + 1)));
  return `${lines.join('\r\n')}\r\n`;
}

export async function renderCsv(input: RenderInput): Promise<RenderedArtefact> {
  const text = renderCsvText(input);
  return {
    bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]),
    mime: 'text/csv; charset=utf-8',
    filename: artefactFilename(input.snapshot, 'csv', 'items'),
  };
}
