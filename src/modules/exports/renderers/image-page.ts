/**
 * The frame every image shares: the language notice and drift line under the header, and the footer that
 * says how many items the page shows of how many, how they were selected, where the scan came from and what
 * was checked. The footer is measured first, so the body gets exactly the room left above it.
 */
import { listText } from './render-text';
import { disclaimerLine, driftLine, languageNotice, RANKING_RULE } from './render-facts';
import { matchedFacts } from './matched-facts';
import { formatDate, scanDateOf } from './render-dates';
import { Svg } from './svg';
import { type Block, stack } from './image-blocks';
import type { Look, Shown } from './image-layout-parts';
import type { RenderInput } from './types';

/**
 * "Top 8 of 45 matching instruments shown, ranked by …; full list in the PDF report." (or "All 12 matching
 * instruments shown."): `total` counts every match, not only the snapshot's items.
 */
export function shownNote(shown: Shown, total: number): string {
  if (total === 0) return '';
  const count = typeof shown === 'number' ? shown : shown.count;
  if (count >= total) return `All ${total} matching instrument${total === 1 ? '' : 's'} shown.`;
  if (typeof shown === 'number') return `Top ${count} of ${total} matching instruments shown, ${RANKING_RULE}; full list in the PDF report.`;
  return `${count} of ${total} matching instruments shown (${shown.scope}); full list in the PDF report.`;
}

/**
 * The language notice (when the image is not in the language asked for) in a tinted band, then the drift
 * line; drawn from `y`, returns the height used.
 */
export function noticeLines(svg: Svg, look: Look, input: RenderInput, x: number, y: number, w: number): number {
  let used = 0;
  const notice = languageNotice(input);
  if (notice) {
    const block = stack(svg, [{ text: notice, size: 19, minSize: 16, maxLines: 3, bold: true, fill: look.fg, overflow: 'whole' }], w - 44);
    svg.rect(x, y, w, block.height + 24, look.panel, { rx: 6 });
    svg.rect(x, y, 6, block.height + 24, look.accent);
    block.draw(x + 26, y + 12);
    used += block.height + 24 + 20;
  }
  if (input.drift) {
    const block = stack(
      svg,
      [{ text: driftLine(input.drift), size: 19, minSize: 15, maxLines: 2, fill: look.fg, overflow: 'whole' }],
      w - 24,
    );
    svg.circle(x + 6, y + used + 12, 6, look.accent);
    block.draw(x + 24, y + used);
    used += block.height + 20;
  }
  return used;
}

export interface Footer {
  /** Top of the footer (its rule). */
  top: number;
  draw(shown: Shown): void;
}

/**
 * Lays out the footer at the bottom of the page: the selection ("Top 8 of 40 shown; …" and selectionLine),
 * the disclaimer, and the snapshot's identity (with its title when the page does not show it above).
 */
export function footer(svg: Svg, look: Look, input: RenderInput, pad: number, withTitle: boolean): Footer {
  const { snapshot } = input;
  const w = svg.width - 2 * pad;
  const total = matchedFacts(snapshot).total;
  const identity = [
    withTitle ? snapshot.title : '',
    `snapshot ${snapshot.id}`,
    `scanned ${formatDate(scanDateOf(snapshot))}`,
    listText(snapshot.config?.jurisdictions),
  ]
    .filter(Boolean)
    .join('  ·  ');
  const blocks = (shown: Shown): Block =>
    stack(
      svg,
      [
        {
          text: shownNote(shown, total),
          size: 17,
          minSize: 15,
          maxLines: 3,
          bold: true,
          fill: look.fg,
          overflow: 'whole',
        },
        { text: disclaimerLine(snapshot), size: 16, minSize: 14, maxLines: 3, fill: look.muted, overflow: 'whole', gap: 8 },
        { text: identity, size: 15, minSize: 13, maxLines: 3, fill: look.muted, overflow: 'whole', gap: 8 },
      ],
      w,
    );
  // Room for the longest note: the most digits, and "… of … shown (…)" rather than "All …".
  const reserved = Math.max(
    blocks(Math.max(0, total - 1)).height,
    blocks({ count: Math.max(0, total - 1), scope: 'the top-ranked of each stage' }).height,
  );
  const bottom = svg.height - 40;
  const top = bottom - reserved - 24;
  return {
    top,
    draw: (shown) => {
      svg.line(pad, top, pad + w, top, look.rule, 1.5);
      const block = blocks(shown);
      block.draw(pad, top + 24);
    },
  };
}
