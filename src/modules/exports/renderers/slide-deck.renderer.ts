/**
 * `slide-deck` (internal-pptx): a 16:9 PowerPoint deck (pptxgenjs), `theme` light | dark (default dark).
 *
 * One slide per section of slideSections() (common.ts), so a scan whose items span J jurisdictions has J + 4
 * slides: title; executive summary (bottom line and priorities); one per jurisdiction (a table of its items:
 * key date, instrument, stage, impact, date confidence; up to 12 rows, the rest counted in a last row, and
 * every item with its summary in the speaker notes); trends (up to 6 cards); sources (up to 20 citations,
 * linked, the rest counted).
 *
 * Fonts: PPTX names a font face, it does not carry the font. Latin text is set in Calibri (present wherever
 * PowerPoint is); when the deck's text needs CJK glyphs (zh / ja) the face is the bundled CJK family's name
 * ("Noto Sans S Chinese" / "Noto Sans Japanese", see fonts.ts) for latin and East Asian runs alike, with the
 * run language set (zh-CN / ja-JP) so PowerPoint substitutes a CJK font of that script where it is not
 * installed.
 */
import PptxGenJS from 'pptxgenjs';
import type { SnapshotItem } from '../../../engine/envelope.types';
import { allCitations, countBy, type JurisdictionSection } from './item-grouping';
import { artefactFilename } from './artefact-filename';
import { CONFIDENCE_LABELS, IMPACT_LABELS, IMPACTS, label, STAGE_LABELS } from './item-labels';
import { formatDate, formatLongDate, horizonText, scanDateOf } from './render-dates';
import { listText, safeHttpUrl, snapshotTexts, stripCites, truncateToColumns } from './render-text';
import { slideSections } from './slide-sections';
import { pickDocumentFont } from './fonts';
import type { RenderedArtefact, RenderInput, RenderSnapshot } from './types';

export const MAX_TABLE_ROWS = 12;
export const MAX_TREND_CARDS = 6;
export const MAX_SOURCES = 20;

interface Theme {
  background: string;
  panel: string;
  text: string;
  muted: string;
  accent: string;
  rule: string;
  impact: Record<string, string>;
}

const THEMES: Record<'light' | 'dark', Theme> = {
  dark: {
    background: '0B1F3A',
    panel: '13294B',
    text: 'F2F4F7',
    muted: 'A9B7CC',
    accent: 'C9A227',
    rule: '2A4470',
    impact: { high: 'F97066', medium: 'FDB022', low: '98A2B3' },
  },
  light: {
    background: 'FFFFFF',
    panel: 'F2F4F7',
    text: '101828',
    muted: '667085',
    accent: '1F3A5F',
    rule: 'D0D5DD',
    impact: { high: 'B42318', medium: 'B54708', low: '475467' },
  },
};

const W = 13.333;
const H = 7.5;
const MARGIN = 0.6;

interface DeckContext {
  pptx: PptxGenJS;
  theme: Theme;
  face: string;
  lang: string;
  snapshot: RenderSnapshot;
}

export async function renderSlideDeck(input: RenderInput): Promise<RenderedArtefact> {
  const { snapshot } = input;
  const theme = THEMES[input.options.theme === 'light' ? 'light' : 'dark'];
  const font = pickDocumentFont(snapshotTexts(snapshot), input.locale, 'sans');
  const face = font.lang ? font.family : 'Calibri';
  const lang = font.lang ?? 'en-US';

  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  pptx.title = snapshot.title;
  pptx.subject = 'Regulatory horizon scan';
  pptx.author = 'Regulatory Scan and Snapshot Service';
  pptx.company = 'Regulatory Scan and Snapshot Service';
  pptx.theme = { headFontFace: face, bodyFontFace: face };
  const ctx: DeckContext = { pptx, theme, face, lang, snapshot };

  for (const section of slideSections(snapshot)) {
    switch (section.kind) {
      case 'title':
        titleSlide(ctx);
        break;
      case 'summary':
        summarySlide(ctx);
        break;
      case 'jurisdiction':
        jurisdictionSlide(ctx, section.section);
        break;
      case 'trends':
        trendsSlide(ctx);
        break;
      case 'sources':
        sourcesSlide(ctx);
        break;
    }
  }

  // 'STREAM' is pptxgenjs's only output type that honours `compression` (a Node Buffer, DEFLATE).
  const bytes = (await pptx.write({ outputType: 'STREAM', compression: true })) as Buffer;
  return {
    bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes as unknown as Uint8Array),
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    filename: artefactFilename(snapshot, 'pptx', 'slides'),
  };
}

function newSlide(ctx: DeckContext, title: string | null): PptxGenJS.Slide {
  const slide = ctx.pptx.addSlide();
  slide.background = { color: ctx.theme.background };
  if (title !== null) {
    slide.addShape(ctx.pptx.ShapeType.rect, {
      x: MARGIN,
      y: 0.45,
      w: 0.08,
      h: 0.55,
      fill: { color: ctx.theme.accent },
      line: { color: ctx.theme.accent },
    });
    slide.addText(title, {
      ...text(ctx),
      x: MARGIN + 0.2,
      y: 0.4,
      w: W - 2 * MARGIN - 0.2,
      h: 0.65,
      fontSize: 26,
      bold: true,
      valign: 'middle',
      fit: 'shrink',
    });
  }
  const footer = `${truncateToColumns(ctx.snapshot.title, 90)}  ·  ${formatDate(scanDateOf(ctx.snapshot))}`;
  slide.addText(footer, { ...text(ctx), x: MARGIN, y: H - 0.45, w: W - 2 * MARGIN - 1, h: 0.3, fontSize: 9, color: ctx.theme.muted });
  slide.slideNumber = {
    x: W - MARGIN - 0.6,
    y: H - 0.45,
    w: 0.6,
    h: 0.3,
    fontSize: 9,
    color: ctx.theme.muted,
    fontFace: ctx.face,
    align: 'right',
  };
  return slide;
}

function text(ctx: DeckContext): PptxGenJS.TextPropsOptions {
  return { fontFace: ctx.face, lang: ctx.lang, color: ctx.theme.text, margin: 0 };
}

function titleSlide(ctx: DeckContext): void {
  const { snapshot, theme } = ctx;
  const slide = ctx.pptx.addSlide();
  slide.background = { color: theme.background };
  slide.addShape(ctx.pptx.ShapeType.rect, { x: 0, y: 0, w: 0.25, h: H, fill: { color: theme.accent }, line: { color: theme.accent } });
  slide.addText('REGULATORY HORIZON SCAN', {
    ...text(ctx),
    x: 1,
    y: 1.2,
    w: W - 2,
    h: 0.4,
    fontSize: 14,
    bold: true,
    color: theme.accent,
    charSpacing: 3,
  });
  slide.addText(truncateToColumns(snapshot.title, 160), {
    ...text(ctx),
    x: 1,
    y: 1.7,
    w: W - 2,
    h: 1.9,
    fontSize: 40,
    bold: true,
    valign: 'top',
    fit: 'shrink',
  });
  const meta = [
    `Scan date ${formatLongDate(scanDateOf(snapshot))}`,
    `Horizon ${horizonText(snapshot)}`,
    `Jurisdictions ${listText(snapshot.config.jurisdictions)}`,
    `Areas ${listText(snapshot.config.areas)}`,
  ].join('   ·   ');
  slide.addText(truncateToColumns(meta, 300), {
    ...text(ctx),
    x: 1,
    y: 3.7,
    w: W - 2,
    h: 0.8,
    fontSize: 16,
    color: theme.muted,
    valign: 'top',
    fit: 'shrink',
  });

  const items = snapshot.data.items ?? [];
  const byImpact = countBy(items, (item) => item.impact);
  const stats: Array<[string, number, string]> = [
    ['Items', items.length, theme.accent],
    ...IMPACTS.map((impact): [string, number, string] => [
      `${IMPACT_LABELS[impact]} impact`,
      byImpact.get(impact) ?? 0,
      theme.impact[impact]!,
    ]),
  ];
  stats.forEach(([name, value, color], index) => {
    const x = 1 + index * 2.7;
    slide.addShape(ctx.pptx.ShapeType.rect, { x, y: 5.0, w: 2.4, h: 1.3, fill: { color: theme.panel }, line: { color: theme.panel } });
    slide.addShape(ctx.pptx.ShapeType.rect, { x, y: 5.0, w: 2.4, h: 0.06, fill: { color }, line: { color } });
    slide.addText(String(value), { ...text(ctx), x: x + 0.2, y: 5.15, w: 2.0, h: 0.7, fontSize: 36, bold: true, color });
    slide.addText(name, { ...text(ctx), x: x + 0.2, y: 5.85, w: 2.0, h: 0.35, fontSize: 13, color: theme.muted });
  });
  slide.addText(`Engine ${snapshot.config.engine || '—'}  ·  snapshot ${snapshot.id}`, {
    ...text(ctx),
    x: 1,
    y: H - 0.6,
    w: W - 2,
    h: 0.3,
    fontSize: 10,
    color: theme.muted,
  });
}

function summarySlide(ctx: DeckContext): void {
  const { snapshot, theme } = ctx;
  const slide = newSlide(ctx, 'Executive summary');
  const bottomLine = stripCites(snapshot.data.executive_summary?.bottom_line) || '—';
  const colW = (W - 2 * MARGIN - 0.5) / 2;
  slide.addShape(ctx.pptx.ShapeType.rect, {
    x: MARGIN,
    y: 1.4,
    w: colW,
    h: 5.3,
    fill: { color: theme.panel },
    line: { color: theme.panel },
  });
  slide.addText('BOTTOM LINE', {
    ...text(ctx),
    x: MARGIN + 0.3,
    y: 1.6,
    w: colW - 0.6,
    h: 0.35,
    fontSize: 12,
    bold: true,
    color: theme.accent,
    charSpacing: 2,
  });
  slide.addText(truncateToColumns(bottomLine, 600), {
    ...text(ctx),
    x: MARGIN + 0.3,
    y: 2.05,
    w: colW - 0.6,
    h: 4.4,
    fontSize: 20,
    valign: 'top',
    fit: 'shrink',
    lineSpacingMultiple: 1.1,
  });

  const priorities = (snapshot.data.executive_summary?.priorities ?? [])
    .map(stripCites)
    .filter((p) => p.length > 0)
    .slice(0, 6);
  const x = MARGIN + colW + 0.5;
  slide.addText('PRIORITIES', { ...text(ctx), x, y: 1.6, w: colW, h: 0.35, fontSize: 12, bold: true, color: theme.accent, charSpacing: 2 });
  if (priorities.length > 0) {
    slide.addText(
      priorities.map((priority) => ({
        text: truncateToColumns(priority, 220),
        options: { bullet: { type: 'number' as const }, paraSpaceAfter: 8, breakLine: true },
      })),
      { ...text(ctx), x, y: 2.05, w: colW, h: 4.6, fontSize: 15, valign: 'top', fit: 'shrink' },
    );
  } else {
    slide.addText('No priorities.', { ...text(ctx), x, y: 2.05, w: colW, h: 0.5, fontSize: 15, color: theme.muted });
  }
}

function jurisdictionSlide(ctx: DeckContext, section: JurisdictionSection): void {
  const { theme } = ctx;
  const count = section.items.length;
  const slide = newSlide(ctx, `${section.jurisdiction} — ${count} item${count === 1 ? '' : 's'}`);
  const shown = count > MAX_TABLE_ROWS ? section.items.slice(0, MAX_TABLE_ROWS - 1) : section.items;
  const dense = shown.length > 7;
  const fontSize = dense ? 11 : 13;
  const head = (value: string): PptxGenJS.TableCell => ({
    text: value.toUpperCase(),
    options: {
      bold: true,
      color: theme.muted,
      fontSize: 10,
      fill: { color: theme.background },
      border: [{ type: 'none' }, { type: 'none' }, { pt: 1, color: theme.rule }, { type: 'none' }],
    },
  });
  const cell = (value: string, options: PptxGenJS.TableCellProps = {}): PptxGenJS.TableCell => ({
    text: value,
    options: {
      color: theme.text,
      fontSize,
      border: [{ type: 'none' }, { type: 'none' }, { pt: 0.5, color: theme.rule }, { type: 'none' }],
      ...options,
    },
  });
  const rows: PptxGenJS.TableRow[] = [[head('Key date'), head('Instrument'), head('Stage'), head('Impact'), head('Confidence')]];
  for (const item of shown) {
    rows.push([
      cell(formatDate(item.key_date), { bold: true }),
      cell(truncateToColumns(item.title, dense ? 85 : 110)),
      cell(label(STAGE_LABELS, item.stage)),
      cell(label(IMPACT_LABELS, item.impact), { bold: true, color: theme.impact[item.impact] ?? theme.text }),
      cell(label(CONFIDENCE_LABELS, item.date_confidence)),
    ]);
  }
  if (shown.length < count) {
    rows.push([
      cell(
        `+ ${count - shown.length} more item${count - shown.length === 1 ? '' : 's'} in the full report (all listed in the speaker notes)`,
        {
          colspan: 5,
          color: theme.muted,
          italic: true,
        },
      ),
    ]);
  }
  const tableW = W - 2 * MARGIN;
  slide.addTable(rows, {
    x: MARGIN,
    y: 1.35,
    w: tableW,
    colW: [1.5, tableW - 1.5 - 1.5 - 1.1 - 1.4, 1.5, 1.1, 1.4],
    fontFace: ctx.face,
    lang: ctx.lang,
    margin: [0.05, 0.08, 0.05, 0.08],
    valign: 'middle',
    autoPage: false,
  } as PptxGenJS.TableProps);
  slide.addNotes(section.items.map(noteFor).join('\n\n'));
}

function noteFor(item: SnapshotItem): string {
  return [
    `${item.title} (${item.jurisdiction}) — ${formatDate(item.key_date)}, ${label(CONFIDENCE_LABELS, item.date_confidence)}; ${label(STAGE_LABELS, item.stage)}; ${label(IMPACT_LABELS, item.impact)} impact; ${item.regulator}.`,
    stripCites(item.summary),
    stripCites(item.implications),
  ]
    .filter((part) => part.length > 0)
    .join('\n');
}

function trendsSlide(ctx: DeckContext): void {
  const { snapshot, theme } = ctx;
  const slide = newSlide(ctx, 'Trends');
  const trends = (snapshot.data.trends ?? []).slice(0, MAX_TREND_CARDS);
  if (trends.length === 0) {
    slide.addText('No cross-cutting trends in this scan.', {
      ...text(ctx),
      x: MARGIN,
      y: 1.6,
      w: W - 2 * MARGIN,
      h: 0.5,
      fontSize: 16,
      color: theme.muted,
    });
    return;
  }
  const cols = trends.length <= 4 ? 2 : 3;
  const rowsCount = Math.ceil(trends.length / cols);
  const gap = 0.3;
  const cardW = (W - 2 * MARGIN - gap * (cols - 1)) / cols;
  const cardH = (H - 1.4 - 0.7 - gap * (rowsCount - 1)) / rowsCount;
  trends.forEach((trend, index) => {
    const x = MARGIN + (index % cols) * (cardW + gap);
    const y = 1.4 + Math.floor(index / cols) * (cardH + gap);
    slide.addShape(ctx.pptx.ShapeType.rect, { x, y, w: cardW, h: cardH, fill: { color: theme.panel }, line: { color: theme.panel } });
    const momentumColor = trend.momentum === 'rising' ? theme.impact.high! : theme.muted;
    slide.addText((trend.momentum ?? '').toUpperCase(), {
      ...text(ctx),
      x: x + 0.25,
      y: y + 0.2,
      w: cardW - 0.5,
      h: 0.3,
      fontSize: 10,
      bold: true,
      color: momentumColor,
      charSpacing: 2,
    });
    slide.addText(truncateToColumns(trend.title, 90), {
      ...text(ctx),
      x: x + 0.25,
      y: y + 0.5,
      w: cardW - 0.5,
      h: 0.6,
      fontSize: 16,
      bold: true,
      valign: 'top',
      fit: 'shrink',
    });
    slide.addText(truncateToColumns(stripCites(trend.description), cols === 2 ? 320 : 200), {
      ...text(ctx),
      x: x + 0.25,
      y: y + 1.15,
      w: cardW - 0.5,
      h: Math.max(0.4, cardH - 1.3),
      fontSize: 12,
      color: theme.muted,
      valign: 'top',
      fit: 'shrink',
    });
  });
}

function sourcesSlide(ctx: DeckContext): void {
  const { snapshot, theme } = ctx;
  const slide = newSlide(ctx, 'Sources');
  const citations = allCitations(snapshot.data.items ?? []);
  if (citations.length === 0) {
    slide.addText('No sources cited.', { ...text(ctx), x: MARGIN, y: 1.6, w: W - 2 * MARGIN, h: 0.5, fontSize: 16, color: theme.muted });
    return;
  }
  const shown = citations.slice(0, MAX_SOURCES);
  const perColumn = Math.ceil(shown.length / 2);
  const colW = (W - 2 * MARGIN - 0.4) / 2;
  [shown.slice(0, perColumn), shown.slice(perColumn)].forEach((column, columnIndex) => {
    if (column.length === 0) return;
    const runs: PptxGenJS.TextProps[] = [];
    for (const citation of column) {
      const url = safeHttpUrl(citation.url);
      runs.push({ text: `[${citation.id}] `, options: { bold: true, color: theme.accent } });
      runs.push({ text: `${truncateToColumns(citation.title || citation.url, 110)}  `, options: { color: theme.text } });
      // The link sits on the short publisher run: some viewers cannot wrap inside a long hyperlinked run.
      const publisher = truncateToColumns(citation.publisher || 'source', 40);
      runs.push({
        text: publisher,
        options: url
          ? { hyperlink: { url, tooltip: citation.url }, color: theme.muted, breakLine: true }
          : { color: theme.muted, breakLine: true },
      });
    }
    slide.addText(runs, {
      ...text(ctx),
      x: MARGIN + columnIndex * (colW + 0.4),
      y: 1.4,
      w: colW,
      h: 5.2,
      fontSize: 11,
      valign: 'top',
      fit: 'shrink',
      paraSpaceAfter: 5,
    });
  });
  if (citations.length > shown.length) {
    slide.addText(`+ ${citations.length - shown.length} more sources in the full report`, {
      ...text(ctx),
      x: MARGIN,
      y: H - 0.85,
      w: W - 2 * MARGIN,
      h: 0.3,
      fontSize: 11,
      italic: true,
      color: theme.muted,
    });
  }
}
