/**
 * `slide-web` (frontend-slides): one self-contained HTML file of slides. Inline CSS and JS only; a Content
 * Security Policy (default-src 'none') makes sure the page loads nothing from anywhere (source links are plain
 * anchors the reader may follow). Fonts are local stacks (the bundled families first, then system fonts).
 *
 * Same sections as the PPTX deck (slideSections in common.ts): title, executive summary, one per jurisdiction
 * (every item, scrolling inside the slide when long), trends, sources. Navigation: arrow keys, Page Up/Down,
 * Space, Home/End, the on-screen buttons, swipe; the slide number is kept in the URL hash. Without JS, and
 * when printed, the slides are shown one after another.
 *
 * `styleSlug`: dark-editorial (serif headlines, hero title) or light-consulting (sans, top rule, columns),
 * colours from SLIDE_WEB_STYLES in image-styles.ts. All snapshot text is HTML-escaped.
 */
import { DEFAULT_SLIDE_WEB_STYLE, findVisualStyle, SLIDE_WEB_STYLES, type VisualStyle } from '../export-types/image-styles';
import type { SnapshotItem } from '../../../engine/envelope.types';
import { allCitations, countBy, type JurisdictionSection, trendItems } from './item-grouping';
import { artefactFilename } from './artefact-filename';
import { CONFIDENCE_LABELS, IMPACT_LABELS, IMPACTS, label, STAGE_LABELS } from './item-labels';
import { formatDate, formatLongDate, horizonText, scanDateOf } from './render-dates';
import { listText, safeHttpUrl, snapshotTexts, stripCites } from './render-text';
import { type SlideSection, slideSections } from './slide-sections';
import { pickDocumentFont } from './fonts';
import type { RenderedArtefact, RenderInput, RenderSnapshot } from './types';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and (double- or single-quoted) attribute values. */
export function escapeHtml(value: string | number | null | undefined): string {
  return String(value ?? '').replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const SANS = `'Source Sans 3', system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif`;
const SERIF = `'Source Serif 4', Georgia, 'Times New Roman', serif`;
const CJK: Record<string, string> = {
  sc: `'Noto Sans S Chinese', 'Noto Sans SC', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', 'Hiragino Sans GB'`,
  jp: `'Noto Sans Japanese', 'Noto Sans JP', 'Noto Sans CJK JP', 'Hiragino Sans', 'Yu Gothic', 'Meiryo'`,
};

export function slideWebStyle(slug: string | undefined): VisualStyle {
  const style = findVisualStyle(slug ?? DEFAULT_SLIDE_WEB_STYLE);
  if (style && SLIDE_WEB_STYLES.includes(style)) return style;
  return findVisualStyle(DEFAULT_SLIDE_WEB_STYLE) ?? SLIDE_WEB_STYLES[0]!;
}

export async function renderSlideWeb(input: RenderInput): Promise<RenderedArtefact> {
  const html = renderSlideWebHtml(input);
  return {
    bytes: Buffer.from(html, 'utf8'),
    mime: 'text/html; charset=utf-8',
    filename: artefactFilename(input.snapshot, 'html', 'slides'),
  };
}

export function renderSlideWebHtml(input: RenderInput): string {
  const { snapshot } = input;
  const style = slideWebStyle(input.options.styleSlug);
  const font = pickDocumentFont(snapshotTexts(snapshot), input.locale, style.typeface === 'serif' ? 'serif' : 'sans');
  const cjk = font.key === 'sc' || font.key === 'jp' ? `${CJK[font.key]}, ` : '';
  const lang = font.lang ?? (input.locale && input.locale !== 'simple' ? input.locale : 'en');
  const sections = slideSections(snapshot);
  const slides = sections.map(
    (
      section,
      index,
    ) => `<section class="slide slide-${section.kind}" id="slide-${index + 1}" aria-label="${escapeHtml(slideLabel(section))}">
<div class="inner">${slideBody(snapshot, section)}</div>
</section>`,
  );
  const headFont = style.typeface === 'serif' ? `${cjk}${SERIF}` : `${cjk}${SANS}`;
  return `<!DOCTYPE html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="generator" content="Regulatory Scan and Snapshot Service">
<title>${escapeHtml(snapshot.title)}</title>
<style>
${css(style, headFont, `${cjk}${SANS}`)}
</style>
</head>
<body class="style-${escapeHtml(style.slug)} layout-${escapeHtml(style.layout)}">
<main class="deck">
${slides.join('\n')}
</main>
<nav class="controls" aria-label="Slide navigation">
<button type="button" data-go="prev" aria-label="Previous slide">&#8592;</button>
<span class="counter"><span data-current>1</span> / ${sections.length}</span>
<button type="button" data-go="next" aria-label="Next slide">&#8594;</button>
</nav>
<div class="progress" aria-hidden="true"><div class="bar"></div></div>
<script>
${SCRIPT}
</script>
</body>
</html>
`;
}

function slideLabel(section: SlideSection): string {
  switch (section.kind) {
    case 'title':
      return 'Title';
    case 'summary':
      return 'Executive summary';
    case 'jurisdiction':
      return section.section.jurisdiction;
    case 'trends':
      return 'Trends';
    case 'sources':
      return 'Sources';
  }
}

function slideBody(snapshot: RenderSnapshot, section: SlideSection): string {
  switch (section.kind) {
    case 'title':
      return titleBody(snapshot);
    case 'summary':
      return summaryBody(snapshot);
    case 'jurisdiction':
      return jurisdictionBody(section.section);
    case 'trends':
      return trendsBody(snapshot);
    case 'sources':
      return sourcesBody(snapshot);
  }
}

function titleBody(snapshot: RenderSnapshot): string {
  const items = snapshot.data.items ?? [];
  const byImpact = countBy(items, (item) => item.impact);
  const stats = [
    `<div class="stat"><b>${items.length}</b><span>Items</span></div>`,
    ...IMPACTS.map(
      (impact) =>
        `<div class="stat impact-${impact}"><b>${byImpact.get(impact) ?? 0}</b><span>${IMPACT_LABELS[impact]} impact</span></div>`,
    ),
  ];
  return `<p class="kicker">Regulatory horizon scan</p>
<h1>${escapeHtml(snapshot.title)}</h1>
<dl class="meta">
<div><dt>Scan date</dt><dd>${escapeHtml(formatLongDate(scanDateOf(snapshot)))}</dd></div>
<div><dt>Jurisdictions</dt><dd>${escapeHtml(listText(snapshot.config.jurisdictions))}</dd></div>
<div><dt>Areas</dt><dd>${escapeHtml(listText(snapshot.config.areas))}</dd></div>
<div><dt>Horizon</dt><dd>${escapeHtml(horizonText(snapshot))}</dd></div>
<div><dt>Engine</dt><dd>${escapeHtml(snapshot.config.engine || '—')}</dd></div>
</dl>
<div class="stats">${stats.join('')}</div>`;
}

function summaryBody(snapshot: RenderSnapshot): string {
  const priorities = (snapshot.data.executive_summary?.priorities ?? []).map(stripCites).filter((p) => p.length > 0);
  const briefing = snapshot.data._briefing;
  const quote = briefing?.pull_quote ? `<blockquote>${escapeHtml(stripCites(briefing.pull_quote))}</blockquote>` : '';
  return `<h2>Executive summary</h2>
<div class="columns">
<div class="panel"><p class="kicker">Bottom line</p><p class="lead">${escapeHtml(stripCites(snapshot.data.executive_summary?.bottom_line) || '—')}</p>${quote}</div>
<div><p class="kicker">Priorities</p>${priorities.length > 0 ? `<ol class="priorities">${priorities.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ol>` : '<p class="muted">No priorities.</p>'}</div>
</div>`;
}

function itemRow(item: SnapshotItem): string {
  return `<li class="item impact-${escapeHtml(item.impact)}">
<div class="when"><b>${escapeHtml(formatDate(item.key_date))}</b><span>${escapeHtml(label(CONFIDENCE_LABELS, item.date_confidence))}</span></div>
<div class="what"><h3>${escapeHtml(item.title)}</h3><p>${escapeHtml(stripCites(item.summary))}</p>${item.implications ? `<p class="implications"><b>Implications:</b> ${escapeHtml(stripCites(item.implications))}</p>` : ''}</div>
<div class="tags"><span class="badge impact">${escapeHtml(label(IMPACT_LABELS, item.impact))}</span><span class="badge">${escapeHtml(label(STAGE_LABELS, item.stage))}</span><span class="regulator">${escapeHtml(item.regulator)}</span></div>
</li>`;
}

function jurisdictionBody(section: JurisdictionSection): string {
  const count = section.items.length;
  return `<h2>${escapeHtml(section.jurisdiction)} <small>${count} item${count === 1 ? '' : 's'}</small></h2>
<ol class="items scroll">${section.items.map(itemRow).join('\n')}</ol>`;
}

function trendsBody(snapshot: RenderSnapshot): string {
  const trends = snapshot.data.trends ?? [];
  const items = snapshot.data.items ?? [];
  if (trends.length === 0) return `<h2>Trends</h2><p class="muted">No cross-cutting trends in this scan.</p>`;
  const cards = trends.map((trend) => {
    const related = trendItems(trend, items);
    return `<article class="card"><p class="kicker momentum-${escapeHtml(trend.momentum)}">${escapeHtml(trend.momentum)}</p><h3>${escapeHtml(trend.title)}</h3><p>${escapeHtml(
      stripCites(trend.description),
    )}</p>${related.length > 0 ? `<p class="muted small">${related.map((item) => escapeHtml(`${item.title} (${item.jurisdiction})`)).join(' · ')}</p>` : ''}</article>`;
  });
  return `<h2>Trends</h2>
<div class="cards scroll">${cards.join('\n')}</div>`;
}

function sourcesBody(snapshot: RenderSnapshot): string {
  const citations = allCitations(snapshot.data.items ?? []);
  if (citations.length === 0) return `<h2>Sources</h2><p class="muted">No sources cited.</p>`;
  const entries = citations.map((citation) => {
    const url = safeHttpUrl(citation.url);
    const title = escapeHtml(citation.title || citation.url);
    const link = url ? `<a href="${escapeHtml(url)}" rel="noopener noreferrer" target="_blank">${title}</a>` : title;
    const meta = [citation.publisher, citation.published_at ? formatDate(citation.published_at) : ''].filter((part) => part).join(', ');
    return `<li><span class="ref">[${escapeHtml(citation.id)}]</span> ${link}${meta ? ` <span class="muted">${escapeHtml(meta)}</span>` : ''}</li>`;
  });
  return `<h2>Sources</h2>
<ol class="sources scroll">${entries.join('\n')}</ol>`;
}

function css(style: VisualStyle, headFont: string, bodyFont: string): string {
  const { background, foreground, accent } = style.palette;
  const dark = isDark(background);
  const panel = dark ? 'rgba(255,255,255,0.06)' : 'rgba(16,24,40,0.045)';
  const muted = dark ? 'rgba(241,243,245,0.66)' : 'rgba(31,42,68,0.66)';
  const rule = dark ? 'rgba(255,255,255,0.14)' : 'rgba(31,42,68,0.16)';
  const high = dark ? '#F97066' : '#B42318';
  const medium = dark ? '#FDB022' : '#B54708';
  const low = dark ? '#98A2B3' : '#475467';
  const hero = style.layout === 'hero';
  return `:root{--bg:${background};--fg:${foreground};--accent:${accent};--panel:${panel};--muted:${muted};--rule:${rule};--high:${high};--medium:${medium};--low:${low};--head:${headFont};--body:${bodyFont}}
*{box-sizing:border-box}
html,body{margin:0;height:100%;background:var(--bg);color:var(--fg);font-family:var(--body);-webkit-font-smoothing:antialiased}
.deck{height:100%}
.slide{min-height:100vh;padding:5vh 6vw 9vh;display:flex;flex-direction:column;border-bottom:1px solid var(--rule)}
html.js .slide{display:none;height:100vh;border:0}
html.js .slide.active{display:flex}
.inner{display:flex;flex-direction:column;min-height:0;height:100%;max-width:1400px;width:100%;margin:0 auto}
h1,h2,h3{font-family:var(--head);margin:0;line-height:1.12}
h1{font-size:clamp(32px,5.4vw,76px);font-weight:700;letter-spacing:-0.01em;margin:1.5vh 0 4vh;max-width:18em}
h2{font-size:clamp(24px,3.2vw,46px);margin-bottom:3vh;${hero ? '' : 'padding-top:1.4vh;border-top:4px solid var(--accent);align-self:flex-start;'}}
h2 small{font-family:var(--body);font-size:0.45em;color:var(--muted);font-weight:400;margin-left:0.5em}
h3{font-size:clamp(16px,1.4vw,21px);margin-bottom:0.4em}
p{margin:0 0 0.6em;line-height:1.45}
.kicker{font-size:13px;letter-spacing:0.16em;text-transform:uppercase;color:var(--accent);font-weight:700;margin-bottom:0.8em}
.muted{color:var(--muted)}.small{font-size:13px}
.slide-title .inner{justify-content:center}
${hero ? '.slide-title h1{font-style:normal;border-left:6px solid var(--accent);padding-left:0.5em}' : '.slide-title .inner{border-top:8px solid var(--accent);padding-top:4vh}'}
.meta{display:grid;grid-template-columns:repeat(auto-fit,minmax(170px,1fr));gap:1.2em 2em;margin:0 0 5vh}
.meta div{border-top:1px solid var(--rule);padding-top:0.6em}
.meta dt{font-size:12px;letter-spacing:0.12em;text-transform:uppercase;color:var(--muted)}
.meta dd{margin:0.3em 0 0;font-size:clamp(15px,1.3vw,20px)}
.stats{display:flex;gap:1.2em;flex-wrap:wrap}
.stat{background:var(--panel);padding:1em 1.4em;min-width:150px;border-top:3px solid var(--accent)}
.stat b{display:block;font-size:clamp(28px,3vw,46px);font-family:var(--head)}
.stat span{color:var(--muted);font-size:14px}
.stat.impact-high{border-color:var(--high)}.stat.impact-high b{color:var(--high)}
.stat.impact-medium{border-color:var(--medium)}.stat.impact-medium b{color:var(--medium)}
.stat.impact-low{border-color:var(--low)}
.columns{display:grid;grid-template-columns:1fr 1fr;gap:3vw;min-height:0;overflow:auto}
.panel{background:var(--panel);padding:1.6em 1.8em;border-left:4px solid var(--accent)}
.lead{font-size:clamp(18px,1.7vw,26px);line-height:1.4;font-family:var(--head)}
blockquote{margin:1.2em 0 0;font-family:var(--head);font-size:clamp(17px,1.5vw,23px);color:var(--accent);font-style:italic}
.priorities{margin:0;padding-left:1.3em;font-size:clamp(15px,1.25vw,19px)}
.priorities li{margin-bottom:0.8em;line-height:1.4;padding-left:0.3em}
.priorities li::marker{color:var(--accent);font-weight:700}
.scroll{overflow:auto;min-height:0;flex:1;padding-right:0.6em}
.items{list-style:none;margin:0;padding:0}
.item{display:grid;grid-template-columns:130px 1fr 190px;gap:1.4em;padding:1em 0 1em 1em;border-bottom:1px solid var(--rule);border-left:4px solid var(--low)}
.item.impact-high{border-left-color:var(--high)}.item.impact-medium{border-left-color:var(--medium)}
.item p{font-size:15px;color:var(--muted)}
.item .implications{color:var(--fg)}
.when b{display:block;font-size:17px}.when span{font-size:13px;color:var(--muted)}
.tags{display:flex;flex-direction:column;align-items:flex-start;gap:0.4em;font-size:13px}
.badge{border:1px solid var(--rule);padding:0.15em 0.6em;border-radius:999px;text-transform:uppercase;letter-spacing:0.08em;font-size:11px;font-weight:700}
.impact-high .badge.impact{background:var(--high);border-color:var(--high);color:#fff}
.impact-medium .badge.impact{background:var(--medium);border-color:var(--medium);color:#fff}
.regulator{color:var(--muted)}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:1.2em;align-content:start}
.card{background:var(--panel);padding:1.3em 1.5em;border-top:3px solid var(--accent)}
.card p{font-size:15px}
.momentum-rising{color:var(--high)}
.sources{columns:2 420px;column-gap:3em;margin:0;padding:0;list-style:none;font-size:15px}
.sources li{break-inside:avoid;margin-bottom:0.8em;line-height:1.4}
.sources .ref{color:var(--accent);font-weight:700}
a{color:inherit;text-decoration-color:var(--accent);text-underline-offset:3px}
.controls{position:fixed;right:2vw;bottom:2vh;display:none;align-items:center;gap:0.8em;font-size:14px;color:var(--muted)}
html.js .controls{display:flex}
.controls button{background:var(--panel);color:var(--fg);border:1px solid var(--rule);width:2.4em;height:2.4em;border-radius:50%;cursor:pointer;font-size:16px}
.controls button:focus-visible{outline:2px solid var(--accent)}
.progress{position:fixed;left:0;right:0;bottom:0;height:4px;display:none}
html.js .progress{display:block}
.progress .bar{height:100%;background:var(--accent);width:0;transition:width .2s}
@media (max-width:800px){.columns{grid-template-columns:1fr}.item{grid-template-columns:1fr}}
@media print{html.js .slide{display:flex!important;height:auto;min-height:100vh;page-break-after:always;break-after:page}.controls,.progress{display:none!important}.scroll{overflow:visible}}`;
}

function isDark(hex: string): boolean {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!m) return false;
  const value = parseInt(m[1]!, 16);
  const r = (value >> 16) & 255;
  const g = (value >> 8) & 255;
  const b = value & 255;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
}

const SCRIPT = `(function () {
  'use strict';
  var root = document.documentElement;
  root.className += ' js';
  var slides = Array.prototype.slice.call(document.querySelectorAll('.slide'));
  var current = document.querySelector('[data-current]');
  var bar = document.querySelector('.progress .bar');
  var index = 0;
  function show(next) {
    if (!slides.length) return;
    index = Math.max(0, Math.min(slides.length - 1, next));
    slides.forEach(function (slide, i) { slide.classList.toggle('active', i === index); slide.setAttribute('aria-hidden', i === index ? 'false' : 'true'); });
    if (current) current.textContent = String(index + 1);
    if (bar) bar.style.width = ((index + 1) / slides.length * 100) + '%';
    if (location.hash !== '#' + (index + 1)) history.replaceState(null, '', '#' + (index + 1));
  }
  function fromHash() { var n = parseInt((location.hash || '').replace('#', '').replace('slide-', ''), 10); return isNaN(n) ? 0 : n - 1; }
  document.addEventListener('keydown', function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var key = event.key;
    if (key === 'ArrowRight' || key === 'ArrowDown' || key === 'PageDown' || key === ' ') { show(index + 1); event.preventDefault(); }
    else if (key === 'ArrowLeft' || key === 'ArrowUp' || key === 'PageUp') { show(index - 1); event.preventDefault(); }
    else if (key === 'Home') { show(0); event.preventDefault(); }
    else if (key === 'End') { show(slides.length - 1); event.preventDefault(); }
  });
  document.addEventListener('click', function (event) {
    var target = event.target.closest ? event.target.closest('[data-go]') : null;
    if (!target) return;
    show(index + (target.getAttribute('data-go') === 'next' ? 1 : -1));
  });
  var touchX = null;
  document.addEventListener('touchstart', function (event) { touchX = event.touches[0].clientX; }, { passive: true });
  document.addEventListener('touchend', function (event) {
    if (touchX === null) return;
    var dx = event.changedTouches[0].clientX - touchX;
    if (Math.abs(dx) > 50) show(index + (dx < 0 ? 1 : -1));
    touchX = null;
  });
  window.addEventListener('hashchange', function () { show(fromHash()); });
  show(fromHash());
})();`;
