/** Image bodies that list the items: card grid, columns, table, list, bento tiles, hero. */
import { CONFIDENCE_LABELS, IMPACT_LABELS, IMPACTS, label, STAGE_LABELS } from './item-labels';
import { countBy } from './item-grouping';
import { formatDate, horizonText } from './render-dates';
import { stripCites } from './render-text';
import { Svg } from './svg';
import { type Look, type Box, type Content, type Variant, sectionTitle, impactChip, moreNote, miniList } from './image-layout-parts';

export function cardsGrid(svg: Svg, look: Look, content: Content, box: Box, variant: Variant): void {
  const cols = 2;
  const gap = 24;
  const cardW = (box.w - gap) / cols;
  const summaryLines = variant === 'tearsheet' ? 3 : 2;
  const minH = 96 + 2 * 30 + summaryLines * 25;
  const rows = Math.max(1, Math.floor((box.h - 30 + gap) / (minH + gap)));
  const cardH = Math.max(minH, (box.h - 40 - gap * (rows - 1)) / rows);
  const lines = Math.max(summaryLines, Math.floor((cardH - 96 - 60 - 10) / 25));
  const items = content.upcoming.slice(0, rows * cols);
  items.forEach((item, index) => {
    const x = box.x + (index % cols) * (cardW + gap);
    const y = box.y + Math.floor(index / cols) * (cardH + gap);
    svg.rect(x, y, cardW, cardH, look.panel, { rx: 6 });
    svg.rect(x, y, cardW, 6, look.impact[item.impact] ?? look.accent);
    svg.text(
      x + 24,
      y + 46,
      `${formatDate(item.key_date)}  ·  ${item.jurisdiction}`,
      { size: 20, bold: true, fill: look.accent },
      cardW - 48,
    );
    const titleH = svg.paragraph(x + 24, y + 84, item.title, {
      size: 24,
      bold: true,
      fill: look.fg,
      maxWidth: cardW - 48,
      maxLines: 2,
      lineHeight: 30,
    });
    svg.paragraph(x + 24, y + 84 + titleH + 8, stripCites(item.summary), {
      size: 18,
      fill: look.muted,
      maxWidth: cardW - 48,
      maxLines: lines + (titleH < 40 ? 1 : 0),
      lineHeight: 25,
    });
  });
  moreNote(svg, look, box.x, box.y + box.h, items.length, content.items.length);
}

export function columns(svg: Svg, look: Look, content: Content, box: Box): void {
  const gap = 48;
  const leftW = (box.w - gap) * 0.55;
  const rightX = box.x + leftW + gap;
  const rightW = box.w - leftW - gap;
  sectionTitle(svg, look, box.x, box.y + 20, 'Next key dates', leftW);
  let y = box.y + 52;
  let shown = 0;
  for (const item of content.upcoming) {
    if (y + 96 > box.y + box.h - 30) break;
    svg.line(box.x, y, box.x + leftW, y, look.rule, 1.5);
    svg.text(box.x, y + 38, formatDate(item.key_date), { size: 22, bold: true, fill: look.impact[item.impact] ?? look.fg }, 170);
    svg.text(
      box.x,
      y + 66,
      `${item.jurisdiction} · ${label(CONFIDENCE_LABELS, item.date_confidence)}`,
      { size: 16, fill: look.muted },
      170,
    );
    const h = svg.paragraph(box.x + 180, y + 36, item.title, {
      size: 22,
      bold: true,
      fill: look.fg,
      maxWidth: leftW - 180,
      maxLines: 2,
      lineHeight: 28,
    });
    y += Math.max(86, h + 40);
    shown++;
  }
  moreNote(svg, look, box.x, box.y + box.h, shown, content.items.length);

  sectionTitle(svg, look, rightX, box.y + 20, 'Priorities', rightW);
  let ry = box.y + 60;
  content.priorities.slice(0, 5).forEach((priority, index) => {
    if (ry + 60 > box.y + box.h * 0.62) return;
    svg.text(rightX, ry + 6, String(index + 1), { size: 30, bold: true, fill: look.accent });
    ry += svg.paragraph(rightX + 40, ry, priority, { size: 20, fill: look.fg, maxWidth: rightW - 40, maxLines: 3, lineHeight: 27 }) + 20;
  });
  const trends = content.snapshot.data.trends ?? [];
  if (trends.length > 0 && ry + 120 < box.y + box.h) {
    ry += 20;
    sectionTitle(svg, look, rightX, ry, 'Trends', rightW);
    ry += 40;
    for (const trend of trends) {
      if (ry + 70 > box.y + box.h) break;
      svg.text(rightX, ry, trend.title, { size: 21, bold: true, fill: look.fg }, rightW);
      svg.text(
        rightX,
        ry + 28,
        `${trend.momentum} · ${trend.item_ids.length} items`,
        { size: 17, fill: trend.momentum === 'rising' ? look.impact.high! : look.muted },
        rightW,
      );
      ry += 66;
    }
  }
}

export function itemsTable(svg: Svg, look: Look, content: Content, box: Box): void {
  const cols: Array<[string, number]> = [
    ['Date', 170],
    ['Jur.', 110],
    ['Instrument', box.w - 170 - 110 - 160 - 150],
    ['Stage', 160],
    ['Impact', 150],
  ];
  let x = box.x;
  for (const [name, w] of cols) {
    svg.text(x + 12, box.y + 24, name, { size: 16, bold: true, fill: look.muted, upper: true, letterSpacing: 2 }, w - 16);
    x += w;
  }
  svg.line(box.x, box.y + 40, box.x + box.w, box.y + 40, look.accent, 2.5);
  const rowH = 76;
  const rows = Math.max(1, Math.floor((box.h - 80) / rowH));
  const items = content.upcoming.slice(0, rows);
  items.forEach((item, index) => {
    const y = box.y + 40 + index * rowH;
    if (index % 2 === 1) svg.rect(box.x, y, box.w, rowH, look.panel);
    let cx = box.x;
    const cells = [formatDate(item.key_date), item.jurisdiction, item.title, label(STAGE_LABELS, item.stage)];
    cells.forEach((cell, cellIndex) => {
      const w = cols[cellIndex]![1];
      if (cellIndex === 2) {
        const lines = svg.lineCount(cell, 20, w - 24, 2, true);
        svg.paragraph(cx + 12, y + (lines === 1 ? 46 : 33), cell, {
          size: 20,
          bold: true,
          fill: look.fg,
          maxWidth: w - 24,
          maxLines: 2,
          lineHeight: 25,
        });
      } else {
        svg.text(cx + 12, y + 46, cell, { size: 19, bold: cellIndex === 0, fill: look.fg }, w - 20);
      }
      cx += w;
    });
    svg.circle(cx + 20, y + 39, 9, look.impact[item.impact] ?? look.muted);
    svg.text(cx + 38, y + 46, label(IMPACT_LABELS, item.impact), { size: 19, fill: look.fg }, cols[4]![1] - 44);
  });
  moreNote(svg, look, box.x, box.y + box.h, items.length, content.items.length);
}

export function itemList(svg: Svg, look: Look, content: Content, box: Box): void {
  let y = box.y + 10;
  let shown = 0;
  for (const item of content.upcoming) {
    const needed = 150;
    if (y + needed > box.y + box.h - 30) break;
    svg.text(box.x, y + 34, String(shown + 1).padStart(2, '0'), { size: 34, bold: true, fill: look.accent });
    const x = box.x + 76;
    const w = box.w - 76;
    const chipW = impactChip(svg, look, x, y + 6, item.impact, 14);
    svg.text(
      x + chipW + 14,
      y + 26,
      `${formatDate(item.key_date)}  ·  ${item.jurisdiction}  ·  ${label(STAGE_LABELS, item.stage)}`,
      { size: 18, fill: look.muted },
      w - chipW - 14,
    );
    const titleH = svg.paragraph(x, y + 68, item.title, { size: 26, bold: true, fill: look.fg, maxWidth: w, maxLines: 2, lineHeight: 32 });
    const sumH = svg.paragraph(x, y + 68 + titleH + 2, stripCites(item.summary), {
      size: 19,
      fill: look.muted,
      maxWidth: w,
      maxLines: 2,
      lineHeight: 26,
    });
    y += 68 + titleH + sumH + 24;
    svg.line(x, y - 12, box.x + box.w, y - 12, look.rule, 1);
    shown++;
  }
  moreNote(svg, look, box.x, box.y + box.h, shown, content.items.length);
}

export function bento(svg: Svg, look: Look, content: Content, box: Box): void {
  const gap = 20;
  const colW = (box.w - gap) / 2;
  const topH = Math.min(300, box.h * 0.36);
  // Big number tile.
  svg.rect(box.x, box.y, colW, topH, look.accent, { rx: 18 });
  svg.text(box.x + 32, box.y + 130, String(content.items.length), { size: 110, bold: true, fill: look.onAccent });
  svg.paragraph(box.x + 32, box.y + 180, `instruments due within ${horizonText(content.snapshot)}`, {
    size: 22,
    fill: look.onAccent,
    maxWidth: colW - 64,
    maxLines: 3,
    lineHeight: 29,
  });
  // Impact tiles.
  const byImpact = countBy(content.items, (item) => item.impact);
  const tileH = (topH - 2 * gap) / 3;
  IMPACTS.forEach((impact, index) => {
    const y = box.y + index * (tileH + gap);
    const x = box.x + colW + gap;
    svg.rect(x, y, colW, tileH, look.panel, { rx: 18 });
    svg.text(x + 28, y + tileH / 2 + 17, String(byImpact.get(impact) ?? 0), { size: 48, bold: true, fill: look.impact[impact]! });
    svg.text(x + 120, y + tileH / 2 + 9, `${IMPACT_LABELS[impact]} impact`, { size: 22, fill: look.fg }, colW - 140);
  });
  // Quote or bottom line tile.
  let y = box.y + topH + gap;
  const quote = content.pullQuote || content.bottomLine;
  const quoteLines = svg.lineCount(quote, 28, box.w - 64, 3, true);
  const quoteH = 64 + quoteLines * 36;
  svg.rect(box.x, y, box.w, quoteH, look.fg, { rx: 18 });
  svg.paragraph(box.x + 32, y + 58, quote, { size: 28, bold: true, fill: look.bg, maxWidth: box.w - 64, maxLines: 3, lineHeight: 36 });
  y += quoteH + gap;
  // Next items as tiles.
  const rest = box.y + box.h - y - 30;
  const tileRows = Math.max(1, Math.floor((rest + gap) / (170 + gap)));
  const items = content.upcoming.slice(0, tileRows * 2);
  const itemH = (rest - gap * (tileRows - 1)) / tileRows;
  items.forEach((item, index) => {
    const x = box.x + (index % 2) * (colW + gap);
    const ty = y + Math.floor(index / 2) * (itemH + gap);
    svg.rect(x, ty, colW, itemH, look.panel, { rx: 18 });
    svg.text(
      x + 28,
      ty + 44,
      `${formatDate(item.key_date)} · ${item.jurisdiction}`,
      { size: 19, bold: true, fill: look.impact[item.impact] ?? look.accent },
      colW - 56,
    );
    svg.paragraph(x + 28, ty + 80, item.title, {
      size: 22,
      bold: true,
      fill: look.fg,
      maxWidth: colW - 56,
      maxLines: Math.max(1, Math.floor((itemH - 90) / 28)),
      lineHeight: 28,
    });
  });
  moreNote(svg, look, box.x, box.y + box.h, items.length, content.items.length);
}

export function hero(svg: Svg, look: Look, content: Content, box: Box): void {
  svg.text(box.x - 6, box.y + 190, String(content.items.length), { size: 220, bold: true, fill: look.accent });
  const numberW = svg.measure(String(content.items.length), 220, true) + 30;
  const byImpact = countBy(content.items, (item) => item.impact);
  svg.paragraph(box.x + numberW, box.y + 92, `regulatory milestones within ${horizonText(content.snapshot)}`, {
    size: 30,
    bold: true,
    fill: look.fg,
    maxWidth: box.w - numberW,
    maxLines: 3,
    lineHeight: 38,
  });
  svg.text(
    box.x + numberW,
    box.y + 200,
    IMPACTS.map((impact) => `${byImpact.get(impact) ?? 0} ${impact}`).join('  ·  '),
    { size: 22, fill: look.muted },
    box.w - numberW,
  );
  let y = box.y + 260;
  const quote = content.pullQuote || content.bottomLine;
  if (quote) {
    svg.rect(box.x, y, 8, 120, look.accent);
    const h = svg.paragraph(box.x + 36, y + 40, `“${quote}”`, {
      size: 34,
      bold: true,
      fill: look.fg,
      maxWidth: box.w - 36,
      maxLines: 3,
      lineHeight: 44,
    });
    y += Math.max(120, h + 10) + 40;
  }
  miniList(svg, look, content, { x: box.x, y, w: box.w, h: box.y + box.h - y }, 'Next key dates');
}
