/** The list slides of the PPTX deck: items of a jurisdiction, changes since the previous scan, trends, sources. */
import type { SnapshotItem } from '../../../engine/envelope.types';
import { CONFIDENCE_LABELS, IMPACT_LABELS, label, STAGE_LABELS } from './item-labels';
import { dateWithMilestone } from './render-facts';
import { stripCites } from './render-text';
import { CONTENT_BOTTOM, CONTENT_TOP, CONTENT_W, DRIFT_ROW, ITEM_ROW, MARGIN, type Para, SOURCE_COLUMN, TREND_CARD } from './slide-deck-layout';
import { quarterLabel, timelineNote } from './matched-facts';
import {
  addBox,
  CONTENT_H,
  type DeckContext,
  type DeckLayout,
  deckParas,
  driftLinePara,
  driftParas,
  driftRowHeight,
  newSlide,
  rect,
  referenceParas,
} from './slide-deck-kit';
import { itemRowHeight } from './slide-deck-layout';
import { packColumns, pageLabel, type SlideSection } from './slide-sections';

type Section<K extends SlideSection['kind']> = Extract<SlideSection, { kind: K }>;

export function jurisdictionSlide(ctx: DeckContext, section: Section<'jurisdiction'>): void {
  const { theme } = ctx;
  const last = section.first + section.items.length - 1;
  const count = `${section.total} item${section.total === 1 ? '' : 's'}`;
  const range = last > section.first ? `items ${section.first}–${last}` : `item ${section.first}`;
  const subtitle = section.pages > 1 ? `${range} of ${section.total}` : count;
  const slide = newSlide(ctx, pageLabel(section.jurisdiction, section), subtitle);
  const paras = deckParas(ctx);
  let y = CONTENT_TOP;
  for (const item of section.items) {
    const h = itemRowHeight(ctx.measure, paras, item);
    rect(slide, ctx, MARGIN, y + ITEM_ROW.pad * 0.5, ITEM_ROW.bar, h - ITEM_ROW.pad, theme.impact[item.impact] ?? theme.muted);
    addBox(slide, ctx, paras.when(item), ITEM_ROW.whenX, y + ITEM_ROW.pad, ITEM_ROW.whenW);
    addBox(slide, ctx, paras.main(item), ITEM_ROW.mainX, y + ITEM_ROW.pad, ITEM_ROW.mainW);
    addBox(slide, ctx, paras.tags(item), ITEM_ROW.tagsX, y + ITEM_ROW.pad, ITEM_ROW.tagsW);
    y += h;
    slide.addShape(ctx.pptx.ShapeType.line, { x: MARGIN, y, w: CONTENT_W, h: 0, line: { color: theme.rule, width: 0.75 } });
  }
  slide.addNotes(section.items.map(noteFor).join('\n\n'));
}

function noteFor(item: SnapshotItem): string {
  return [
    `${item.title} (${item.jurisdiction}) — ${dateWithMilestone(item)}, ${label(CONFIDENCE_LABELS, item.date_confidence)}; ${label(STAGE_LABELS, item.stage)}; ${label(IMPACT_LABELS, item.impact)} impact; ${item.regulator}.`,
    stripCites(item.summary),
    stripCites(item.implications),
  ]
    .filter((part) => part.length > 0)
    .join('\n');
}

export function driftSlide(ctx: DeckContext, section: Section<'drift'>): void {
  const slide = newSlide(ctx, pageLabel(`Changes since ${section.baselineDate}`, section));
  let y = CONTENT_TOP;
  if (section.page === 1) y += addBox(slide, ctx, driftLinePara(section.line), MARGIN, y, CONTENT_W) + 0.15;
  if (section.entries.length === 0) {
    addBox(
      slide,
      ctx,
      [{ size: 14, runs: [{ text: 'No items were added, removed or changed.', color: ctx.theme.muted }] }],
      MARGIN,
      y,
      CONTENT_W,
    );
    return;
  }
  for (const entry of section.entries) {
    const paras = driftParas(ctx, entry);
    addBox(slide, ctx, paras.label, MARGIN, y + DRIFT_ROW.pad + 0.03, DRIFT_ROW.labelW);
    addBox(slide, ctx, paras.main, DRIFT_ROW.mainX, y + DRIFT_ROW.pad, DRIFT_ROW.mainW);
    y += driftRowHeight(ctx, entry);
    slide.addShape(ctx.pptx.ShapeType.line, { x: MARGIN, y, w: CONTENT_W, h: 0, line: { color: ctx.theme.rule, width: 0.75 } });
  }
}

export function trendsSlide(ctx: DeckContext, layout: DeckLayout, section: Section<'trends'>): void {
  const { theme } = ctx;
  const slide = newSlide(ctx, pageLabel('Trends', section));
  if (section.cards.length === 0) {
    addBox(
      slide,
      ctx,
      [{ size: 16, runs: [{ text: 'No cross-cutting trends in this scan.', color: theme.muted }] }],
      MARGIN,
      CONTENT_TOP + 0.2,
      CONTENT_W,
    );
    return;
  }
  let y = CONTENT_TOP;
  for (let i = 0; i < section.cards.length; i += 2) {
    const row = section.cards.slice(i, i + 2);
    const h = Math.max(...row.map((card) => layout.trendCardHeight(card)));
    row.forEach((card, column) => {
      const x = MARGIN + column * (TREND_CARD.w + TREND_CARD.gap);
      rect(slide, ctx, x, y, TREND_CARD.w, h, theme.panel);
      const momentum = card.trend.momentum ?? '';
      addBox(
        slide,
        ctx,
        [
          {
            size: 10,
            runs: [{ text: momentum.toUpperCase(), bold: true, color: momentum === 'rising' ? theme.impact.high! : theme.muted }],
          },
        ],
        x + TREND_CARD.padX,
        y + TREND_CARD.padY,
        TREND_CARD.w - 2 * TREND_CARD.padX,
      );
      addBox(
        slide,
        ctx,
        layout.trendParas(card),
        x + TREND_CARD.padX,
        y + TREND_CARD.padY + TREND_CARD.kicker,
        TREND_CARD.w - 2 * TREND_CARD.padX,
      );
    });
    y += h + TREND_CARD.gap;
  }
}

export function sourcesSlide(ctx: DeckContext, layout: DeckLayout, section: Section<'sources'>): void {
  const subtitle = section.total > 0 ? `${section.total} reference${section.total === 1 ? '' : 's'}` : '';
  const slide = newSlide(ctx, pageLabel('Sources', section), subtitle);
  if (section.references.length === 0) {
    addBox(slide, ctx, [{ size: 16, runs: [{ text: 'No sources cited.', color: ctx.theme.muted }] }], MARGIN, CONTENT_TOP + 0.2, CONTENT_W);
    return;
  }
  // The page's references came from two columns (DeckLayout.referencePages); split them the same way.
  const columns =
    packColumns(section.references, (reference) => layout.referenceHeight(reference), CONTENT_H, 2, SOURCE_COLUMN.entryGap)[0] ?? [];
  columns.forEach((column, index) => {
    let y = CONTENT_TOP;
    const x = MARGIN + index * (SOURCE_COLUMN.w + SOURCE_COLUMN.gap);
    for (const reference of column) y += addBox(slide, ctx, referenceParas(ctx, reference), x, y, SOURCE_COLUMN.w) + SOURCE_COLUMN.entryGap;
  });
}

/** Milestones by quarter: the quarter x jurisdiction grid, each cell shaded by its count. */
export function timelineSlide(ctx: DeckContext, section: Section<'timeline'>): void {
  const { theme } = ctx;
  const slide = newSlide(ctx, 'Milestones by quarter');
  const labelW = 1.7;
  const shownW = 1.3;
  const colW = (CONTENT_W - labelW - shownW) / section.quarters.length;
  const note: Para[] = [{ size: 11, runs: [{ text: timelineNote(section.total, section.shown, section.undated), color: theme.muted }] }];
  const noteH = ctx.measure.boxHeight(note, CONTENT_W);
  const rowH = Math.min(0.38, (CONTENT_BOTTOM - CONTENT_TOP - 0.35 - noteH - 0.1) / section.rows.length);
  const max = Math.max(1, ...section.rows.flatMap((row) => row.counts));
  const cell = (text: string, x: number, y: number, w: number, h: number, color: string, bold = true) =>
    slide.addText(text, { x, y, w, h, fontFace: ctx.face, lang: ctx.lang, fontSize: 10, bold, color, align: 'center', valign: 'middle', margin: 0 });
  let y = CONTENT_TOP;
  section.quarters.forEach((quarter, index) => cell(quarterLabel(quarter), MARGIN + labelW + index * colW, y, colW, 0.3, theme.muted));
  cell('Shown', MARGIN + CONTENT_W - shownW, y, shownW, 0.3, theme.muted);
  y += 0.35;
  for (const row of section.rows) {
    slide.addText(row.jurisdiction, { x: MARGIN, y, w: labelW - 0.1, h: rowH, fontFace: ctx.face, lang: ctx.lang, fontSize: 11, bold: true, color: theme.text, valign: 'middle', margin: 0, fit: 'shrink' });
    row.counts.forEach((n, index) => {
      const x = MARGIN + labelW + index * colW;
      slide.addShape(ctx.pptx.ShapeType.rect, {
        x: x + 0.02,
        y: y + 0.02,
        w: colW - 0.04,
        h: rowH - 0.04,
        fill: { color: n === 0 ? theme.panel : theme.accent, transparency: n === 0 ? 0 : Math.round(75 * (1 - n / max)) },
        line: { color: n === 0 ? theme.panel : theme.accent, transparency: n === 0 ? 0 : Math.round(75 * (1 - n / max)) },
      });
      if (n > 0) cell(String(n), x, y, colW, rowH, n / max > 0.5 ? theme.background : theme.text);
    });
    cell(row.shownOf, MARGIN + CONTENT_W - shownW, y, shownW, rowH, theme.muted, false);
    y += rowH;
  }
  addBox(slide, ctx, note, MARGIN, y + 0.1, CONTENT_W);
}
