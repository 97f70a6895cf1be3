/** The body of each web slide (HTML), drawn to the heights slide-web-layout.ts measured. */
import type { SnapshotItem } from '../../../engine/envelope.types';
import { countBy } from './item-grouping';
import { IMPACT_LABELS, IMPACTS, label, STAGE_LABELS } from './item-labels';
import { quarterLabel, timelineNote } from './matched-facts';
import { type References, shortSource } from './render-facts';
import { safeHttpUrl } from './render-text';
import { u } from './slide-web-css';
import { BODY_H, driftLabel, itemTexts, LINE, referenceMeta, trendRelated, type WebLayout, type WebMeasure } from './slide-web-layout';
import { pageLabel, type SlideSection } from './slide-sections';
import type { RenderSnapshot } from './types';
import { matchedFacts, totalTileLabel } from './matched-facts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and (double- or single-quoted) attribute values. */
export function escapeHtml(value: string | number | null | undefined): string {
  return String(value ?? '').replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

type Section<K extends SlideSection['kind']> = Extract<SlideSection, { kind: K }>;

export interface WebContext {
  snapshot: RenderSnapshot;
  measure: WebMeasure;
  layout: WebLayout;
  references: References;
}

function link(url: string | null | undefined, text: string, className = ''): string {
  const safe = safeHttpUrl(url);
  const cls = className ? ` class="${className}"` : '';
  return safe
    ? `<a${cls} href="${escapeHtml(safe)}" rel="noopener noreferrer" target="_blank">${escapeHtml(text)}</a>`
    : `<span${cls}>${escapeHtml(text)}</span>`;
}

/** The slide heading, shrunk from 40 px when it would not fit one line. */
export function heading(ctx: WebContext, title: string, note = ''): string {
  const full = note ? `${title}   ${note}` : title;
  const size = [40, 34, 28, 24].find((s) => ctx.measure.fitsOneLine(full, s, 1440, { bold: true, head: true })) ?? 24;
  const small = note ? ` <small>${escapeHtml(note)}</small>` : '';
  return `<div class="head"><h2${size === 40 ? '' : ` style="font-size:${u(size)}"`}>${escapeHtml(title)}${small}</h2></div>`;
}

export function summaryBody(ctx: WebContext, section: Section<'summary'>, band: { selection: string; disclaimer: string }): string {
  const { layout } = ctx;
  const leadStyle = `font-size:${u(layout.leadSize)};line-height:${u(LINE.lead(layout.leadSize))}`;
  const priorityStyle = `font-size:${u(layout.prioritySize)};line-height:${u(LINE.priority(layout.prioritySize))}`;
  const left =
    section.lead.length > 0 || section.quote
      ? `<div class="panel"><p class="kicker">${section.page === 1 ? 'Bottom line' : 'Bottom line (continued)'}</p>${section.lead
          .map((text) => `<p class="lead" style="${leadStyle}">${escapeHtml(text)}</p>`)
          .join('')}${section.quote ? `<blockquote>${escapeHtml(section.quote)}</blockquote>` : ''}</div>`
      : '<div></div>';
  const priorities =
    section.priorities.length > 0
      ? `<ol class="priorities">${section.priorities.map((p) => `<li style="${priorityStyle}"><b>${p.number}.</b><span>${escapeHtml(p.text)}</span></li>`).join('')}</ol>`
      : section.page === 1
        ? `<p class="muted" style="${priorityStyle}">No priorities.</p>`
        : '';
  const right =
    section.priorities.length > 0 || section.page === 1
      ? `<div class="right"><p class="kicker">Priorities</p>${priorities}</div>`
      : '<div></div>';
  const columns = `<div class="columns" style="height:${u(layout.summaryColumnHeight(section.page - 1))}">${left}${right}</div>`;
  const bandHtml =
    section.page === 1
      ? `<div class="band"><p class="selection">${escapeHtml(band.selection)}</p><p class="disclaimer">${escapeHtml(band.disclaimer)}</p></div>`
      : '';
  return `${heading(ctx, pageLabel('Executive summary', section))}<div class="body">${columns}${bandHtml}</div>`;
}

export function driftBody(ctx: WebContext, section: Section<'drift'>): string {
  const line = section.page === 1 ? `<p class="drift-line">${escapeHtml(section.line)}</p>` : '';
  const rows = section.entries.map(
    (entry) =>
      `<li class="change change-${entry.change}"><span class="label">${driftLabel(entry)}</span><div><b class="title">${escapeHtml(entry.title)}</b>${
        entry.detail ? ` <span class="detail">${escapeHtml(entry.detail)}</span>` : ''
      }</div></li>`,
  );
  const list =
    rows.length > 0 ? `<ol class="changes">${rows.join('\n')}</ol>` : '<p class="muted">No items were added, removed or changed.</p>';
  return `${heading(ctx, pageLabel(`Changes since ${section.baselineDate}`, section))}<div class="body">${line}${list}</div>`;
}

function itemRow(ctx: WebContext, item: SnapshotItem): string {
  const t = itemTexts(item, ctx.references);
  const refs = ctx.references
    .itemNumbers(item)
    .map((n) => link(ctx.references.list[n - 1]?.citation.url, `[${n}]`, 'ref'))
    .join(' ');
  const short = shortSource(item);
  const source = short ? link(item.citations[0]?.url, short) : '<span>No source cited</span>';
  const milestone = t.milestone ? ` <span>— ${escapeHtml(t.milestone)}</span>` : '';
  return `<li class="item impact-${escapeHtml(item.impact)}" data-item="${escapeHtml(item.id)}">
<div class="when"><b>${escapeHtml(t.date)}</b>${milestone}</div>
<div class="what"><h3>${escapeHtml(item.title)}</h3>${t.summary ? `<p>${escapeHtml(t.summary)}</p>` : ''}${
    t.implications ? `<p class="implications"><b>Implications:</b> ${escapeHtml(t.implications)}</p>` : ''
  }<p class="src">${refs}${refs ? ' ' : ''}${source}</p></div>
<div class="tags"><span class="badge impact">${escapeHtml(label(IMPACT_LABELS, item.impact))}</span><span class="badge">${escapeHtml(
    label(STAGE_LABELS, item.stage),
  )}</span><span class="regulator">${escapeHtml(item.regulator || '—')}</span></div>
</li>`;
}

export function jurisdictionBody(ctx: WebContext, section: Section<'jurisdiction'>): string {
  const last = section.first + section.items.length - 1;
  const range = last > section.first ? `items ${section.first}–${last}` : `item ${section.first}`;
  const note = section.pages > 1 ? `${range} of ${section.total}` : `${section.total} item${section.total === 1 ? '' : 's'}`;
  return `${heading(ctx, pageLabel(section.jurisdiction, section), note)}<div class="body"><ol class="items">${section.items.map((item) => itemRow(ctx, item)).join('\n')}</ol></div>`;
}

export function trendsBody(ctx: WebContext, section: Section<'trends'>): string {
  const items = ctx.snapshot.data.items ?? [];
  if (section.cards.length === 0)
    return `${heading(ctx, 'Trends')}<div class="body"><p class="muted">No cross-cutting trends in this scan.</p></div>`;
  const cards = section.cards.map((card) => {
    const related = card.continued ? '' : trendRelated(card.trend, items);
    return `<article class="card"><p class="kicker momentum-${escapeHtml(card.trend.momentum)}">${escapeHtml(card.trend.momentum)}</p><h3>${escapeHtml(card.trend.title)}${
      card.continued ? ' (continued)' : ''
    }</h3><p>${escapeHtml(card.description)}</p>${related ? `<p class="related">${escapeHtml(related)}</p>` : ''}</article>`;
  });
  return `${heading(ctx, pageLabel('Trends', section))}<div class="body"><div class="cards">${cards.join('\n')}</div></div>`;
}

export function sourcesBody(ctx: WebContext, section: Section<'sources'>): string {
  const note = section.total > 0 ? `${section.total} reference${section.total === 1 ? '' : 's'}` : '';
  if (section.references.length === 0) return `${heading(ctx, 'Sources')}<div class="body"><p class="muted">No sources cited.</p></div>`;
  const columns = ctx.layout.referenceColumns(section.references).map(
    (column) =>
      `<ol>${column
        .map((reference) => {
          const { citation, number } = reference;
          const meta = referenceMeta(reference);
          const url = citation.url ? link(citation.url, citation.url, 'url') : '';
          return `<li id="ref-${number}"><span class="ref">[${number}]</span> ${link(citation.url, citation.title || citation.url || 'Untitled source')}${
            meta ? ` <span class="muted">— ${escapeHtml(meta)}</span>` : ''
          }${url}</li>`;
        })
        .join('\n')}</ol>`,
  );
  return `${heading(ctx, pageLabel('Sources', section), note)}<div class="body"><div class="sources">${columns.join('')}</div></div>`;
}

export interface TitleFacts {
  headline: string;
  subtitle: string | null;
  meta: Array<[string, string]>;
  notice: string | null;
}

const HEADLINE_SIZES = [72, 64, 56, 48, 42, 36, 32, 28] as const;
const SUBTITLE_SIZES = [22, 20, 18, 16] as const;

/** The cover: headline and subtitle at the largest sizes at which the whole cover fits the frame. */
export function titleBody(ctx: WebContext, facts: TitleFacts, available: number): string {
  const m = ctx.measure;
  const metaLines = Math.max(...facts.meta.map(([, value]) => m.lines(value, 17, (1440 - 4 * 24) / 5)));
  const fixed = 40 + 11 + 16 + 6 + 23 * metaLines + 28 + (facts.notice ? 23 * m.lines(facts.notice, 16, 1440) + 20 : 0) + 104 + 8;
  let head: number = HEADLINE_SIZES[HEADLINE_SIZES.length - 1];
  let sub: number = SUBTITLE_SIZES[SUBTITLE_SIZES.length - 1];
  search: for (const h of HEADLINE_SIZES) {
    for (const s of SUBTITLE_SIZES) {
      const height =
        Math.round(h * 1.12) * m.lines(facts.headline, h, 1300, { bold: true, head: true }) +
        20 +
        (facts.subtitle ? Math.round(s * 1.36) * m.lines(facts.subtitle, s, 1300) + 24 : 0);
      if (fixed + height <= available) {
        head = h;
        sub = s;
        break search;
      }
    }
  }
  const matched = matchedFacts(ctx.snapshot);
  const stats = [
    `<div class="stat"><b>${matched.counted}</b><span>${escapeHtml(totalTileLabel(matched))}</span></div>`,
    ...IMPACTS.map(
      (impact) => `<div class="stat impact-${impact}"><b>${matched.byImpact[impact]}</b><span>${IMPACT_LABELS[impact]} impact</span></div>`,
    ),
  ];
  return `<div class="inner"><p class="kicker">Regulatory horizon scan</p>
<h1 style="font-size:${u(head)};line-height:${u(Math.round(head * 1.12))}">${escapeHtml(facts.headline)}</h1>
${facts.subtitle ? `<p class="subtitle" style="font-size:${u(sub)};line-height:${u(Math.round(sub * 1.36))}">${escapeHtml(facts.subtitle)}</p>` : ''}
<dl class="meta">${facts.meta.map(([name, value]) => `<div><dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd></div>`).join('')}</dl>
${facts.notice ? `<p class="notice">${escapeHtml(facts.notice)}</p>` : ''}
<div class="stats">${stats.join('')}</div></div>`;
}

/** Milestones by quarter: the quarter x jurisdiction grid, each cell shaded by its count. */
export function timelineBody(ctx: WebContext, section: Section<'timeline'>): string {
  const max = Math.max(1, ...section.rows.flatMap((row) => row.counts));
  const rowH = Math.min(44, Math.floor((BODY_H - 120) / (section.rows.length + 1)));
  const head = `<tr><th></th>${section.quarters.map((q) => `<th>${escapeHtml(quarterLabel(q))}</th>`).join('')}<th class="shown">Shown</th></tr>`;
  const rows = section.rows
    .map(
      (row) =>
        `<tr style="height:${u(rowH)}"><th class="j">${escapeHtml(row.jurisdiction)}</th>${row.counts
          .map((n) => (n === 0 ? '<td></td>' : `<td class="on" style="--shade:${(0.2 + 0.8 * (n / max)).toFixed(2)}">${n}</td>`))
          .join('')}<td class="shown">${escapeHtml(row.shownOf)}</td></tr>`,
    )
    .join('');
  return `${heading(ctx, 'Milestones by quarter')}<div class="body"><table class="quarters">${head}${rows}</table><p class="quarters-note">${escapeHtml(
    timelineNote(section.total, section.shown, section.undated),
  )}</p></div>`;
}
