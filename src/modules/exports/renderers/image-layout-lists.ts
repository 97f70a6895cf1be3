/**
 * Image bodies that list the items: card grid, columns, table, list, bento tiles, hero. Each shows the
 * top-ranked items that fit its box whole and returns how many that is.
 */
import { IMPACT_LABELS, IMPACTS, label, STAGE_LABELS } from './item-labels';
import { horizonText } from './render-dates';
import { dateWithMilestone } from './render-facts';
import { Svg } from './svg';
import { type Block, row, stack } from './image-blocks';
import { itemRuns, rowTextRuns, sourceRun, summaryRun, titleRun, unbrokenDate } from './image-items';
import { type Look, type Box, type Content, type Variant, sectionTitle, impactChip, miniList } from './image-layout-parts';
import { matchedFacts } from './matched-facts';

/**
 * Blocks of the leading items that fit `available` one below another (`extent` is a block's height with its
 * padding, `gap` the space between): built one at a time, and only until the next one does not fit whole.
 */
function leading(
  count: number,
  build: (index: number) => Block,
  extent: (block: Block) => number,
  available: number,
  gap: number,
): Block[] {
  const blocks: Block[] = [];
  let used = 0;
  for (let index = 0; index < count; index++) {
    const block = build(index);
    const next = used + (index > 0 ? gap : 0) + extent(block);
    if (next > available) break;
    used = next;
    blocks.push(block);
  }
  return blocks;
}

/** Two columns of cards, row by row; a row is as tall as its taller card. */
function cardRows(
  svg: Svg,
  look: Look,
  content: Content,
  box: Box,
  cardBlock: (index: number, width: number) => Block,
  rx: number,
): number {
  const gap = 20;
  const pad = 22;
  const cardW = (box.w - gap) / 2;
  const rows = leading(
    Math.ceil(content.items.length / 2),
    (rowIndex) => {
      const cells = [2 * rowIndex, 2 * rowIndex + 1]
        .filter((index) => index < content.items.length)
        .map((index, column) => ({ block: cardBlock(index, cardW - 2 * pad), dx: column * (cardW + gap) }));
      return row(cells);
    },
    (block) => block.height + 2 * pad + 6,
    box.h,
    gap,
  );
  const used = rows.reduce((sum, block) => sum + block.height + 2 * pad + 6 + gap, -gap);
  const stretch = rows.length > 0 ? Math.min(60, Math.max(0, (box.h - used) / rows.length)) : 0;
  let y = box.y;
  rows.forEach((block, rowIndex) => {
    const h = block.height + 2 * pad + 6 + stretch;
    for (let column = 0; column < 2; column++) {
      const item = content.items[2 * rowIndex + column];
      if (!item) continue;
      const x = box.x + column * (cardW + gap);
      svg.rect(x, y, cardW, h, look.panel, { rx });
      svg.rect(x, y, cardW, 6, look.impact[item.impact] ?? look.accent);
    }
    block.draw(box.x + pad, y + 6 + pad);
    y += h + gap;
  });
  return Math.min(content.items.length, rows.length * 2);
}

export function cardsGrid(svg: Svg, look: Look, content: Content, box: Box, variant: Variant): number {
  const sizes = { title: 24, titleMin: 17, titleLines: 3, meta: 17, summary: 17, summaryLines: variant === 'tearsheet' ? 4 : 2 };
  return cardRows(svg, look, content, box, (index, width) => stack(svg, itemRuns(content.items[index]!, look, sizes), width), 6);
}

export function columns(svg: Svg, look: Look, content: Content, box: Box): number {
  const gap = 44;
  const leftW = Math.round((box.w - gap) * 0.6);
  const rightX = box.x + leftW + gap;
  const rightW = box.w - leftW - gap;
  const shown = miniList(svg, look, content, { x: box.x, y: box.y, w: leftW, h: box.h }, 'Key dates');

  let ry = box.y + sectionTitle(svg, look, rightX, box.y, 'Priorities', rightW);
  const bottom = box.y + box.h;
  for (const [index, priority] of content.priorities.slice(0, 5).entries()) {
    const block = stack(svg, [{ text: priority, size: 20, minSize: 16, maxLines: 5, fill: look.fg, overflow: 'whole' }], rightW - 40);
    if (ry + block.height > bottom) break;
    svg.text(rightX, ry + 24, String(index + 1), { size: 28, bold: true, fill: look.accent });
    block.draw(rightX + 40, ry);
    ry += block.height + 20;
  }
  const trends = content.snapshot.data.trends ?? [];
  if (trends.length > 0 && ry + 120 < bottom) {
    ry += 16;
    ry += sectionTitle(svg, look, rightX, ry, 'Trends', rightW);
    for (const trend of trends) {
      const block = stack(
        svg,
        [
          { text: trend.title, size: 21, minSize: 16, maxLines: 3, bold: true, fill: look.fg, overflow: 'whole' },
          {
            text: `${trend.momentum} · ${trend.item_ids.length} items`,
            size: 17,
            fill: trend.momentum === 'rising' ? look.impact.high! : look.muted,
            gap: 4,
          },
        ],
        rightW,
      );
      if (ry + block.height > bottom) break;
      block.draw(rightX, ry);
      ry += block.height + 18;
    }
  }
  return shown;
}

export function itemsTable(svg: Svg, look: Look, content: Content, box: Box): number {
  const cols: Array<[string, number]> = [
    ['Date', 170],
    ['Jur.', 110],
    ['Instrument', box.w - 170 - 110 - 150 - 140],
    ['Stage', 150],
    ['Impact', 140],
  ];
  let x = box.x;
  for (const [name, w] of cols) {
    svg.text(x + 12, box.y + 24, name, { size: 16, bold: true, fill: look.muted, upper: true, letterSpacing: 2 }, w - 16);
    x += w;
  }
  svg.line(box.x, box.y + 40, box.x + box.w, box.y + 40, look.accent, 2.5);
  const pad = 14;
  const offsets = cols.map((_, index) => cols.slice(0, index).reduce((sum, [, w]) => sum + w, 0));
  const rows = leading(
    content.items.length,
    (index) => {
      const item = content.items[index]!;
      const cell = (column: number, runs: Parameters<typeof stack>[1]): { block: Block; dx: number } => ({
        block: stack(svg, runs, cols[column]![1] - 24),
        dx: offsets[column]! + 12,
      });
      return row([
        cell(0, [{ text: unbrokenDate(item), size: 18, minSize: 15, maxLines: 2, bold: true, fill: look.fg, overflow: 'whole' }]),
        cell(1, [{ text: item.jurisdiction, size: 18, minSize: 14, maxLines: 2, fill: look.fg, overflow: 'whole' }]),
        cell(2, rowTextRuns(item, look, { title: 19, titleMin: 15, titleLines: 4, meta: 15 })),
        cell(3, [{ text: label(STAGE_LABELS, item.stage), size: 18, minSize: 14, maxLines: 2, fill: look.fg, overflow: 'whole' }]),
        {
          block: stack(svg, [{ text: label(IMPACT_LABELS, item.impact), size: 18, fill: look.fg }], cols[4]![1] - 50),
          dx: offsets[4]! + 38,
        },
      ]);
    },
    (block) => block.height + 2 * pad,
    box.h - 44,
    0,
  );
  let y = box.y + 42;
  rows.forEach((block, index) => {
    const item = content.items[index]!;
    const h = block.height + 2 * pad;
    if (index % 2 === 1) svg.rect(box.x, y, box.w, h, look.panel);
    svg.circle(box.x + offsets[4]! + 20, y + pad + 12, 9, look.impact[item.impact] ?? look.muted);
    block.draw(box.x, y + pad);
    y += h;
  });
  return rows.length;
}

export function itemList(svg: Svg, look: Look, content: Content, box: Box): number {
  const x = box.x + 76;
  const w = box.w - 76;
  const sizes = { title: 26, titleMin: 18, titleLines: 2, meta: 18, summary: 19, summaryLines: 2 };
  const blocks = leading(
    content.items.length,
    (index) => {
      const item = content.items[index]!;
      return stack(
        svg,
        [
          { text: dateWithMilestone(item), size: 18, minSize: 15, maxLines: 2, bold: true, fill: look.accent, overflow: 'whole' },
          titleRun(item, look, sizes, 8),
          sourceRun(item, look, 16),
          summaryRun(item, look, sizes),
        ],
        w,
      );
    },
    (block) => 40 + block.height,
    box.h,
    30,
  );
  let y = box.y;
  blocks.forEach((block, index) => {
    const item = content.items[index]!;
    svg.text(box.x, y + 34, String(index + 1).padStart(2, '0'), { size: 34, bold: true, fill: look.accent });
    const chipW = impactChip(svg, look, x, y, item.impact, 14);
    svg.text(
      x + chipW + 14,
      y + 20,
      `${item.jurisdiction}  ·  ${label(STAGE_LABELS, item.stage)}`,
      { size: 18, fill: look.muted },
      w - chipW - 14,
    );
    block.draw(x, y + 40);
    y += 40 + block.height + 30;
    if (index < blocks.length - 1) svg.line(x, y - 15, box.x + box.w, y - 15, look.rule, 1);
  });
  return blocks.length;
}

/** The quote or bottom line: the leading whole sentences that fit. */
function quoteBlock(svg: Svg, content: Content, width: number, size: number, fill: string): Block | null {
  const quote = content.pullQuote || content.bottomLine;
  if (!quote) return null;
  return stack(svg, [{ text: quote, size, minSize: size - 6, maxLines: 3, bold: true, fill, overflow: 'sentences', leading: 1.3 }], width);
}

export function bento(svg: Svg, look: Look, content: Content, box: Box): number {
  const gap = 20;
  const colW = (box.w - gap) / 2;
  const topH = Math.min(300, box.h * 0.36);
  svg.rect(box.x, box.y, colW, topH, look.accent, { rx: 18 });
  const facts = matchedFacts(content.snapshot);
  svg.text(box.x + 32, box.y + 130, String(facts.total), { size: 110, bold: true, fill: look.onAccent }, colW - 64);
  stack(
    svg,
    [
      {
        text: `matching instruments with a milestone within ${horizonText(content.snapshot)}`,
        size: 22,
        minSize: 17,
        maxLines: 3,
        fill: look.onAccent,
        overflow: 'whole',
      },
    ],
    colW - 64,
  ).draw(box.x + 32, box.y + 160);
  const tileH = (topH - 2 * gap) / 3;
  IMPACTS.forEach((impact, index) => {
    const y = box.y + index * (tileH + gap);
    const x = box.x + colW + gap;
    svg.rect(x, y, colW, tileH, look.panel, { rx: 18 });
    svg.text(x + 28, y + tileH / 2 + 17, String(facts.byImpact[impact]), { size: 48, bold: true, fill: look.impact[impact]! });
    svg.text(x + 120, y + tileH / 2 + 9, `${IMPACT_LABELS[impact]} impact`, { size: 22, fill: look.fg }, colW - 140);
  });
  let y = box.y + topH + gap;
  const quote = quoteBlock(svg, content, box.w - 64, 28, look.bg);
  if (quote) {
    svg.rect(box.x, y, box.w, quote.height + 56, look.fg, { rx: 18 });
    quote.draw(box.x + 32, y + 28);
    y += quote.height + 56 + gap;
  }
  const sizes = { title: 21, titleMin: 15, titleLines: 3, meta: 16 };
  return cardRows(
    svg,
    look,
    content,
    { x: box.x, y, w: box.w, h: box.y + box.h - y },
    (index, width) =>
      stack(svg, itemRuns(content.items[index]!, look, sizes, look.impact[content.items[index]!.impact] ?? look.accent), width),
    18,
  );
}

export function hero(svg: Svg, look: Look, content: Content, box: Box): number {
  const facts = matchedFacts(content.snapshot);
  const number = String(facts.total);
  svg.text(box.x - 6, box.y + 200, number, { size: 220, bold: true, fill: look.accent });
  const numberW = svg.measure(number, 220, true) + 30;
  stack(
    svg,
    [
      {
        text: `matching instruments with a milestone within ${horizonText(content.snapshot)}`,
        size: 30,
        minSize: 22,
        maxLines: 3,
        bold: true,
        fill: look.fg,
        overflow: 'whole',
      },
      {
        text: IMPACTS.map((impact) => `${facts.byImpact[impact]} ${impact}`).join('  ·  '),
        size: 22,
        minSize: 16,
        maxLines: 2,
        fill: look.muted,
        overflow: 'whole',
        gap: 14,
      },
    ],
    box.w - numberW,
  ).draw(box.x + numberW, box.y + 40);
  let y = box.y + 280;
  const quote = quoteBlock(svg, content, box.w - 36, 32, look.fg);
  if (quote) {
    svg.rect(box.x, y, 8, quote.height, look.accent);
    quote.draw(box.x + 36, y);
    y += quote.height + 44;
  }
  return miniList(svg, look, content, { x: box.x, y, w: box.w, h: box.y + box.h - y }, 'Key dates');
}
