/**
 * Style sheet and navigation script of the web slides. Every length is in design pixels of the 1600 × 900
 * frame times --u (the frame scaled to fit the window, or a 16 × 9 in page when printed), taken from the
 * geometry in slide-web-layout.ts, so what the layout measured is what the browser draws. Nothing scrolls
 * inside a slide: lists that do not fit continue on the next slide.
 */
import type { VisualStyle } from '../export-types/image-styles';
import { DRIFT, FRAME, ITEM, LINE, SOURCES, SUMMARY, TEXT, TREND } from './slide-web-layout';

/** `n` design pixels. */
export function u(n: number): string {
  return `calc(${Math.round(n * 100) / 100}*var(--u))`;
}

export function isDark(hex: string): boolean {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!m) return false;
  const value = parseInt(m[1]!, 16);
  const r = (value >> 16) & 255;
  const g = (value >> 8) & 255;
  const b = value & 255;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
}

export function slideCss(style: VisualStyle, headFont: string, bodyFont: string): string {
  const { background, foreground, accent } = style.palette;
  const dark = isDark(background);
  const panel = dark ? 'rgba(255,255,255,0.06)' : 'rgba(16,24,40,0.045)';
  const muted = dark ? 'rgba(241,243,245,0.7)' : 'rgba(31,42,68,0.7)';
  const rule = dark ? 'rgba(255,255,255,0.14)' : 'rgba(31,42,68,0.16)';
  const high = dark ? '#F97066' : '#B42318';
  const medium = dark ? '#FDB022' : '#B54708';
  const low = dark ? '#98A2B3' : '#475467';
  const hero = style.layout === 'hero';
  return `:root{--u:min(calc(100vw / ${FRAME.w}),calc(100vh / ${FRAME.h}));--bg:${background};--fg:${foreground};--accent:${accent};--panel:${panel};--muted:${muted};--rule:${rule};--high:${high};--medium:${medium};--low:${low};--head:${headFont};--body:${bodyFont}}
*{box-sizing:border-box}
html,body{margin:0;background:var(--bg);color:var(--fg);font-family:var(--body);-webkit-font-smoothing:antialiased;font-kerning:none}
.deck{display:flex;flex-direction:column;align-items:center;gap:${u(24)}}
.slide{position:relative;width:${u(FRAME.w)};height:${u(FRAME.h)};padding:${u(FRAME.padTop)} ${u(FRAME.padX)} ${u(FRAME.padBottom)};display:flex;flex-direction:column;background:var(--bg);border-bottom:1px solid var(--rule);flex:none}
html.js body{height:100vh;overflow:hidden}
html.js .deck{height:100vh;justify-content:center}
html.js .slide{display:none;border:0}
html.js .slide.active{display:flex}
h1,h2,h3{font-family:var(--head);margin:0}
p{margin:0}
.head{height:${u(FRAME.head)};flex:none}
h2{font-size:${u(40)};line-height:${u(46)};white-space:nowrap;${hero ? '' : `padding-top:${u(14)};border-top:${u(4)} solid var(--accent);display:inline-block;`}}
h2 small{font-family:var(--body);font-size:${u(18)};color:var(--muted);font-weight:400;margin-left:${u(14)}}
.body{height:${u(FRAME.h - FRAME.padTop - FRAME.padBottom - FRAME.head)};flex:none}
.kicker{font-size:${u(12)};line-height:${u(16)};letter-spacing:0.16em;text-transform:uppercase;color:var(--accent);font-weight:700;margin-bottom:${u(12)};white-space:nowrap}
.muted{color:var(--muted)}
a{color:inherit;text-decoration-color:var(--accent);text-underline-offset:0.2em}
.slide-title .inner{display:flex;flex-direction:column;justify-content:center;height:100%}
${hero ? `.slide-title h1{border-left:${u(6)} solid var(--accent);padding-left:${u(24)}}` : `.slide-title .inner{border-top:${u(8)} solid var(--accent)}`}
.slide-title .kicker{font-size:${u(14)};line-height:${u(20)};margin-bottom:${u(20)}}
h1{font-weight:700;margin-bottom:${u(20)};max-width:${u(1300)}}
.subtitle{color:var(--muted);margin-bottom:${u(24)};max-width:${u(1300)}}
.meta{display:grid;grid-template-columns:repeat(5,1fr);gap:0 ${u(24)};margin:0 0 ${u(28)}}
.meta div{border-top:${u(1)} solid var(--rule);padding-top:${u(10)}}
.meta dt{font-size:${u(12)};line-height:${u(16)};letter-spacing:0.12em;text-transform:uppercase;color:var(--muted)}
.meta dd{margin:${u(6)} 0 0;font-size:${u(17)};line-height:${u(23)}}
.notice{font-size:${u(16)};line-height:${u(23)};font-style:italic;color:var(--accent);margin-bottom:${u(20)}}
.stats{display:flex;gap:${u(20)};height:${u(104)}}
.stat{background:var(--panel);padding:${u(14)} ${u(22)};width:${u(200)};border-top:${u(3)} solid var(--accent)}
.stat b{display:block;font-size:${u(40)};line-height:${u(46)};font-family:var(--head)}
.stat span{color:var(--muted);font-size:${u(14)};line-height:${u(20)}}
.stat.impact-high{border-color:var(--high)}.stat.impact-high b{color:var(--high)}
.stat.impact-medium{border-color:var(--medium)}.stat.impact-medium b{color:var(--medium)}
.stat.impact-low{border-color:var(--low)}
.columns{display:grid;grid-template-columns:1fr 1fr;gap:${u(SUMMARY.gap)};align-items:start}
.panel{background:var(--panel);padding:${u(SUMMARY.panelPadY)} ${u(SUMMARY.panelPadX)};border-left:${u(SUMMARY.panelBar)} solid var(--accent)}
.lead{font-family:var(--head);margin-bottom:${u(12)}}
blockquote{margin:${u(16)} 0 0;font-family:var(--head);font-size:${u(19)};line-height:${u(27)};color:var(--accent);font-style:italic}
.priorities{list-style:none;margin:0;padding:0}
.columns>.right{padding-top:${u(SUMMARY.panelPadY)}}
.priorities li{display:grid;grid-template-columns:${u(SUMMARY.number)} 1fr;margin-bottom:${u(12)}}
.priorities li b{color:var(--accent)}
.band{border-top:${u(1)} solid var(--rule);padding-top:${u(12)};margin-top:${u(SUMMARY.bandGap)}}
.band .selection{font-size:${u(TEXT.body)};line-height:${u(LINE.body)};font-weight:700;margin-bottom:${u(4)}}
.band .disclaimer{font-size:${u(TEXT.small)};line-height:${u(LINE.small)};color:var(--muted)}
.items{list-style:none;margin:0;padding:0}
.item{display:grid;grid-template-columns:${u(ITEM.when)} 1fr ${u(ITEM.tags)};column-gap:${u(ITEM.gap)};padding:${u(ITEM.padY)} 0 ${u(ITEM.padY)} ${u(ITEM.padLeft)};border-bottom:${u(1)} solid var(--rule);border-left:${u(ITEM.bar)} solid var(--low)}
.item.impact-high{border-left-color:var(--high)}.item.impact-medium{border-left-color:var(--medium)}
.when b{display:block;font-size:${u(TEXT.date)};line-height:${u(LINE.date)}}
.when span{display:block;font-size:${u(TEXT.small)};line-height:${u(LINE.small)};color:var(--muted);margin-top:${u(4)}}
.what h3{font-size:${u(TEXT.h3)};line-height:${u(LINE.h3)};margin-bottom:${u(6)}}
.what p{font-size:${u(TEXT.body)};line-height:${u(LINE.body)};color:var(--muted);margin-bottom:${u(6)}}
.what .implications{color:var(--fg)}
.what .src{font-size:${u(TEXT.small)};line-height:${u(LINE.small)};margin:0;color:var(--muted)}
.src .ref{color:var(--accent);font-weight:700}
.tags .badge{display:block;width:max-content;height:${u(22)};border:${u(1)} solid var(--rule);padding:0 ${u(9)};border-radius:999px;text-transform:uppercase;letter-spacing:0.08em;font-size:${u(11)};line-height:${u(20)};font-weight:700;margin-bottom:${u(6)};white-space:nowrap}
.tags .regulator{font-size:${u(TEXT.small)};line-height:${u(LINE.small)};color:var(--muted)}
.impact-high .badge.impact{background:var(--high);border-color:var(--high);color:#fff}
.impact-medium .badge.impact{background:var(--medium);border-color:var(--medium);color:#fff}
.cards{display:grid;grid-template-columns:1fr 1fr;column-gap:${u(TREND.gap)};row-gap:${u(TREND.rowGap)};align-content:start}
.card{background:var(--panel);padding:${u(TREND.padY)} ${u(TREND.padX)};border-top:${u(TREND.top)} solid var(--accent)}
.card .kicker{margin-bottom:${u(8)}}
.card h3{font-size:${u(TEXT.h3)};line-height:${u(LINE.h3)};margin-bottom:${u(8)}}
.card p{font-size:${u(TEXT.body)};line-height:${u(LINE.body)};color:var(--muted)}
.card .related{font-size:${u(TEXT.small)};line-height:${u(LINE.small)};margin-top:${u(8)}}
.card .momentum-rising{color:var(--high)}
.sources{display:grid;grid-template-columns:1fr 1fr;column-gap:${u(SOURCES.gap)};align-items:start}
.sources ol{list-style:none;margin:0;padding:0}
.sources li{font-size:${u(TEXT.body)};line-height:${u(LINE.body)};margin-bottom:${u(SOURCES.entryGap)}}
.sources .ref{color:var(--accent);font-weight:700}
.sources .url{display:block;font-size:${u(TEXT.url)};line-height:${u(LINE.url)};color:var(--muted);overflow-wrap:anywhere}
.drift-line{font-size:${u(18)};line-height:${u(26)};margin-bottom:${u(16)}}
table.quarters{width:100%;border-collapse:separate;border-spacing:${u(3)};table-layout:fixed}
table.quarters th{font-size:${u(TEXT.small)};line-height:${u(20)};color:var(--muted);font-weight:700;text-align:center}
table.quarters th.j{text-align:left;color:var(--fg);width:${u(200)};font-size:${u(17)}}
table.quarters td{background:var(--panel);text-align:center;font-size:${u(TEXT.body)};font-weight:700;border-radius:${u(4)}}
table.quarters td.on{background:color-mix(in srgb,var(--accent) calc(var(--shade)*100%),var(--bg));color:var(--fg)}
table.quarters .shown{width:${u(150)};background:none;color:var(--muted);font-weight:400;text-align:right}
.quarters-note{font-size:${u(TEXT.small)};line-height:${u(LINE.small)};color:var(--muted);margin-top:${u(12)}}
.changes{list-style:none;margin:0;padding:0}
.change{display:grid;grid-template-columns:${u(DRIFT.label)} 1fr;column-gap:${u(DRIFT.gap)};padding:${u(DRIFT.padY)} 0;border-bottom:${u(1)} solid var(--rule)}
.change .label{font-size:${u(12)};line-height:${u(LINE.small)};font-weight:700;letter-spacing:0.1em;text-transform:uppercase}
.change-new .label{color:var(--accent)}.change-removed .label{color:var(--high)}.change-changed .label{color:var(--medium)}
.change b{display:block;font-size:${u(TEXT.driftTitle)};line-height:${u(LINE.driftTitle)}}
.change .detail{display:block;font-size:${u(TEXT.driftDetail)};line-height:${u(LINE.driftDetail)};color:var(--muted);margin-top:${u(2)}}
.controls{position:fixed;right:${u(24)};bottom:${u(18)};display:none;align-items:center;gap:${u(12)};font-size:${u(14)};color:var(--muted)}
html.js .controls{display:flex}
.controls button{background:var(--panel);color:var(--fg);border:1px solid var(--rule);width:${u(36)};height:${u(36)};border-radius:50%;cursor:pointer;font-size:${u(16)}}
.controls button:focus-visible{outline:2px solid var(--accent)}
.progress{position:fixed;left:0;right:0;bottom:0;height:${u(4)};display:none}
html.js .progress{display:block}
.progress .bar{height:100%;background:var(--accent);width:0;transition:width .2s}
@page{size:16in 9in;margin:0}
@media print{:root{--u:calc(16in / ${FRAME.w})}html.js body{height:auto;overflow:visible}html.js .deck{height:auto;display:block}html.js .slide,.slide{display:flex!important;border:0;break-after:page;page-break-after:always}.deck{gap:0}.controls,.progress{display:none!important}}`;
}

export const SLIDE_SCRIPT = `(function () {
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
